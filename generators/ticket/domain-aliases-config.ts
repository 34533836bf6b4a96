// A valid domain_aliases_config: one of the observed domain_verification values and, or not, a
// few distinct pending domains.
import fc from 'fast-check';
import { pendingDomain } from './pending-domain.ts';
import { enumAt } from './ticket-schema.ts';

export interface DomainAliasesConfig {
  domain_verification: string;
  pending_domains?: string[];
}

export function domainAliasesConfig(): fc.Arbitrary<DomainAliasesConfig> {
  return fc.record(
    {
      domain_verification: fc.constantFrom(...enumAt('observed', ['domain_aliases_config', 'domain_verification'])),
      pending_domains: fc.uniqueArray(pendingDomain(), { maxLength: 3 }),
    },
    { requiredKeys: ['domain_verification'], noNullPrototype: true },
  );
}
