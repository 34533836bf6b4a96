// A host-name-like tenant-custom-domain value longer than the maximum, one over most often.
import fc from 'fast-check';
import { customDomainBounds } from './custom-domain-bounds.ts';
import { customDomainOfLength } from './custom-domain-of-length.ts';

/** How far over the maximum to go: enough to pass any off-by-a-few check, far under header limits. */
const OVERSHOOT = 45;

export function customDomainTooLong(): fc.Arbitrary<string> {
  const { max } = customDomainBounds();
  return fc.oneof(customDomainOfLength(max + 1), fc.integer({ min: max + 1, max: max + OVERSHOOT }).chain(customDomainOfLength));
}
