// A host-name-like tenant-custom-domain value shorter than the minimum (one under most often) and
// never empty, since an empty header is another case than a short one.
import fc from 'fast-check';
import { customDomainBounds } from './custom-domain-bounds.ts';
import { customDomainOfLength } from './custom-domain-of-length.ts';

export function customDomainTooShort(): fc.Arbitrary<string> {
  const { min } = customDomainBounds();
  if (min <= 1) throw new RangeError(`no non-empty custom domain is under a minimum of ${min}`);
  return fc.oneof(customDomainOfLength(min - 1), fc.integer({ min: 1, max: min - 1 }).chain(customDomainOfLength));
}
