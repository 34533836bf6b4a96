// Integer ttl_sec under the minimum, one under most often, down to the smallest 32-bit integer
// (where a server that stores it in 32 bits could wrap).
import fc from 'fast-check';
import { ttlSecRange } from './ttl-sec-range.ts';

export function ttlSecBelowMinimum(): fc.Arbitrary<number> {
  const { min } = ttlSecRange();
  return fc.oneof(fc.constant(min - 1), fc.integer({ max: min - 1 }));
}
