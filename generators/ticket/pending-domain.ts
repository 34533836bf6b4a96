// One domain_aliases_config.pending_domains item: a host name of an everyday length, within the
// observed bounds. Boundary lengths stay out because what else the service checks in a domain is
// not known.
import fc from 'fast-check';
import { hostNameOfLength } from '../host-names/host-name-of-length.ts';
import { keywordAt } from './ticket-schema.ts';

const ITEM = ['domain_aliases_config', 'pending_domains', '[]'];
const EVERYDAY_LENGTHS = { min: 6, max: 40 };

export function pendingDomain(): fc.Arbitrary<string> {
  const min = Math.max(keywordAt('observed', ITEM, 'minLength'), EVERYDAY_LENGTHS.min);
  const max = Math.min(keywordAt('observed', ITEM, 'maxLength'), EVERYDAY_LENGTHS.max);
  return fc.integer({ min, max }).chain(hostNameOfLength);
}
