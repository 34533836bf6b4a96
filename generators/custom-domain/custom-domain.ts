// A tenant-custom-domain header value a target must accept: the shortest and longest lengths
// often, everyday lengths often, any length in the bounds otherwise.
import fc from 'fast-check';
import { customDomainBounds } from './custom-domain-bounds.ts';
import { customDomainOfLength } from './custom-domain-of-length.ts';

/** Lengths of host names people use ("login.example.com" is 17). */
const EVERYDAY_LENGTHS = { min: 8, max: 40 };

export function customDomain(): fc.Arbitrary<string> {
  const { min, max } = customDomainBounds();
  const everyday = fc.integer({ min: Math.max(min, EVERYDAY_LENGTHS.min), max: Math.min(max, EVERYDAY_LENGTHS.max) });
  return fc.oneof(
    customDomainOfLength(min),
    customDomainOfLength(max),
    everyday.chain(customDomainOfLength),
    fc.integer({ min, max }).chain(customDomainOfLength),
  );
}
