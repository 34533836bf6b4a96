// Integer ttl_sec over the maximum, one over most often, up to the largest 32-bit integer.
import fc from 'fast-check';
import { ttlSecRange } from './ttl-sec-range.ts';

export function ttlSecAboveMaximum(): fc.Arbitrary<number> {
  const { max } = ttlSecRange();
  return fc.oneof(fc.constant(max + 1), fc.integer({ min: max + 1 }));
}
