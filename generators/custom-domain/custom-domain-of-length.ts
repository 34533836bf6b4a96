// A tenant-custom-domain header value of exactly `length` characters, shaped like a host name so
// that only its length can be the reason a target refuses it.
import type fc from 'fast-check';
import { hostNameOfLength } from '../host-names/host-name-of-length.ts';

export function customDomainOfLength(length: number): fc.Arbitrary<string> {
  return hostNameOfLength(length);
}
