// Integer ttl_sec far outside the range that a 32-bit integer wraps into it: a value of the range
// plus or minus 2^32. A server that reads ttl_sec into a 32-bit field before checking the range
// (or checks the range after the field wrapped it) accepts them; every one is outside the range.
import fc from 'fast-check';
import { ttlSecRange } from './ttl-sec-range.ts';

/** What a 32-bit integer holds: values are taken modulo this. */
const TWO_TO_32 = 2 ** 32;

export function ttlSecWrappingIntoRange(): fc.Arbitrary<number> {
  const { min, max } = ttlSecRange();
  return fc.tuple(fc.integer({ min, max }), fc.constantFrom(TWO_TO_32, -TWO_TO_32)).map(wrappedFrom);
}

function wrappedFrom([inRange, turn]: [number, number]): number {
  return inRange + turn;
}
