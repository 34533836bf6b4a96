// Numbers with a fraction: JSON numbers, but not integers, so of the wrong type. Half a second
// beside each bound often (those a truncating or rounding server gets wrong; -0.5 and 432000.5
// are outside the range as well), else anywhere from just under the minimum to the maximum.
import fc from 'fast-check';
import { ttlSecRange } from './ttl-sec-range.ts';

export function ttlSecNonInteger(): fc.Arbitrary<number> {
  const { min, max } = ttlSecRange();
  const besideBounds = fc.constantFrom(min - 0.5, min + 0.5, min + 1.5, max - 0.5, max + 0.5);
  const fraction = fc.double({ min: 0, max: 1, minExcluded: true, maxExcluded: true, noNaN: true });
  const anywhere = fc
    .tuple(fc.integer({ min: min - 1, max }), fraction)
    .map(sum)
    .filter(hasFraction);
  return fc.oneof(besideBounds, anywhere);
}

function sum([whole, fraction]: [number, number]): number {
  return whole + fraction;
}

function hasFraction(value: number): boolean {
  return !Number.isInteger(value);
}
