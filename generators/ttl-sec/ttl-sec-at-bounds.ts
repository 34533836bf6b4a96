// ttl_sec at the ends of its range, and one above the minimum: the minimum (0) is also the
// "use the default" value, so the smallest explicit lifetime is worth its own case.
import fc from 'fast-check';
import { ttlSecRange } from './ttl-sec-range.ts';

export function ttlSecAtBounds(): fc.Arbitrary<number> {
  const { min, max } = ttlSecRange();
  return fc.constantFrom(min, min + 1, max);
}
