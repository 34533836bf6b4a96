// Any integer ttl_sec a target must accept, with the bounds drawn often.
import fc from 'fast-check';
import { ttlSecAtBounds } from './ttl-sec-at-bounds.ts';
import { ttlSecRange } from './ttl-sec-range.ts';

export function ttlSecWithinRange(): fc.Arbitrary<number> {
  const { min, max } = ttlSecRange();
  return fc.oneof(ttlSecAtBounds(), fc.integer({ min, max }));
}
