// Bodies that break one observed rule: each passes the contract and fails the observed level for
// that rule alone. The expected keyword and place are spelled here, apart from the generators.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { validator } from '../../specs/index.ts';
import { ticketObservedRules, ticketRequestBody, ticketRequestBodyBreakingObservedRule, type TicketObservedRule } from '../index.ts';
import { runs, sampleOptions } from './support/runs.ts';
import { expectRefusedOnlyFor, expectValid, type Refusal } from './support/schema-expectations.ts';

const contract = validator('SsoTicketRequest', 'contract');
const observedLevel = validator('SsoTicketRequest', 'observed');

const expected: Record<TicketObservedRule, Refusal> = {
  'an unknown top-level property': { keywords: ['additionalProperties'], at: '' },
  'an unknown property in an enabled_organizations item': { keywords: ['additionalProperties'], at: /^\/enabled_organizations\/\d+$/ },
  'an unknown property in domain_aliases_config': { keywords: ['additionalProperties'], at: '/domain_aliases_config' },
  'an unknown property in provisioning_config': { keywords: ['additionalProperties'], at: '/provisioning_config' },
  'an unknown property in enabled_features': { keywords: ['additionalProperties'], at: '/enabled_features' },
  'an enabled_organizations item without organization_id': { keywords: ['required'], at: /^\/enabled_organizations\/\d+$/ },
  'an organization_id over the maximum length': { keywords: ['maxLength'], at: /^\/enabled_organizations\/\d+\/organization_id$/ },
  'empty provisioning_config.scopes': { keywords: ['minItems'], at: '/provisioning_config/scopes' },
  'a provisioning_config scope outside the allowed values': { keywords: ['enum'], at: /^\/provisioning_config\/scopes\/\d+$/ },
  'a provisioning_config.token_lifetime under the minimum': { keywords: ['minimum'], at: '/provisioning_config/token_lifetime' },
  'domain_aliases_config without domain_verification': { keywords: ['required'], at: '/domain_aliases_config' },
  'a domain_verification outside the allowed values': { keywords: ['enum'], at: '/domain_aliases_config/domain_verification' },
  'a pending domain of a wrong length': { keywords: ['minLength', 'maxLength'], at: /^\/domain_aliases_config\/pending_domains\/\d+$/ },
  'connection_config without a name': { keywords: ['required'], at: '/connection_config' },
  'a malformed connection_config name': { keywords: ['minLength', 'maxLength', 'pattern'], at: '/connection_config/name' },
};

describe('ticketRequestBodyBreakingObservedRule', () => {
  it('covers every observed rule in the list', () => {
    expect(Object.keys(expected).sort()).toEqual([...ticketObservedRules].sort());
  });

  it.each(ticketObservedRules.map((rule) => ({ rule })))(
    'a body with $rule passes the contract and fails that observed rule only',
    ({ rule }) => {
      fc.assert(
        fc.property(ticketRequestBodyBreakingObservedRule(rule), (body) => {
          expectValid(contract, body);
          expectRefusedOnlyFor(observedLevel, body, expected[rule]);
        }),
        { ...runs, numRuns: 60 },
      );
    },
  );

  it('the rule check does not pass a valid body off as breaking a rule', () => {
    const [body] = fc.sample(ticketRequestBody(), sampleOptions);
    expect(() => expectRefusedOnlyFor(observedLevel, body, expected['an unknown top-level property'])).toThrow();
  });
});
