// The type rules of the ticket body: the list (spelled out here on purpose, so that a change in
// specs/ shows), each rule's clause in the registry, and for each rule a body that fails the
// contract with a type error at exactly that field.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hasClause, validator } from '../../specs/index.ts';
import { ticketBodyTypeRules, ticketRequestBody, ticketRequestBodyWithWrongType } from '../index.ts';
import { runs, sampleOptions } from './support/runs.ts';
import { expectRefusedOnlyFor, instancePathOf } from './support/schema-expectations.ts';

const contract = validator('SsoTicketRequest', 'contract');
const observedLevel = validator('SsoTicketRequest', 'observed');

describe('ticketBodyTypeRules', () => {
  it('has one rule per typed field of the contract', () => {
    expect(ticketBodyTypeRules.map((rule) => `${rule.field}: ${rule.types.join('|')}`)).toEqual([
      'connection_id: string',
      'connection_config: object',
      'enabled_clients: array',
      'enabled_clients[]: string',
      'enabled_organizations: array',
      'enabled_organizations[]: object',
      'enabled_organizations[].organization_id: string',
      'enabled_organizations[].assign_membership_on_login: boolean',
      'enabled_organizations[].show_as_button: boolean',
      'ttl_sec: integer',
      'domain_aliases_config: object',
      'provisioning_config: object',
      'provisioning_config.scopes: array',
      'provisioning_config.token_lifetime: integer',
      'use_for_organization_discovery: boolean',
      'enabled_features: object',
      'enabled_features.sso: boolean',
      'enabled_features.domain_verification: boolean',
      'enabled_features.provisioning: boolean',
    ]);
  });

  it.each(ticketBodyTypeRules)('$field cites $clause, a clause of the registry', ({ clause }) => {
    expect(hasClause(clause), `${clause} is not in specs/clauses.yaml`).toBe(true);
  });

  it("items cite their array's clause", () => {
    const clauseOf = (field: string) => ticketBodyTypeRules.find((rule) => rule.field === field)?.clause;
    expect(clauseOf('enabled_clients[]')).toBe('sso-ticket.body.enabled_clients.type');
    expect(clauseOf('enabled_organizations[].organization_id')).toBe('sso-ticket.body.enabled_organizations.organization_id.type');
  });
});

describe('ticketRequestBodyWithWrongType', () => {
  it.each(ticketBodyTypeRules)('a body with $field of a wrong type fails both levels on type at that field only', ({ field, path }) => {
    const at = instancePathOf(path);
    fc.assert(
      fc.property(ticketRequestBodyWithWrongType(field), (body) => {
        expectRefusedOnlyFor(contract, body, { keywords: ['type'], at });
        expectRefusedOnlyFor(observedLevel, body, { keywords: ['type'], at });
      }),
      { ...runs, numRuns: 60 },
    );
  });

  it('never sends a null token_lifetime, which the real service accepts', () => {
    const bodies = fc.sample(ticketRequestBodyWithWrongType('provisioning_config.token_lifetime'), { ...sampleOptions, numRuns: 300 });
    const values = bodies.map((body) => (body.provisioning_config as { token_lifetime: unknown }).token_lifetime);
    expect(values).not.toContain(null);
    expect(values.some((value) => typeof value === 'number' && !Number.isInteger(value))).toBe(true);
  });

  it('gives a fraction for ttl_sec among its wrong types', () => {
    const values = fc.sample(ticketRequestBodyWithWrongType('ttl_sec'), { ...sampleOptions, numRuns: 300 }).map((body) => body.ttl_sec);
    expect(values.some((value) => typeof value === 'number' && !Number.isInteger(value))).toBe(true);
    expect(values).toContain(null);
  });

  it('refuses a field that has no type rule', () => {
    expect(() => ticketRequestBodyWithWrongType('ttl')).toThrow(/no type rule for ttl/);
  });

  it('the type check does not pass a valid body off as wrongly typed', () => {
    const [body] = fc.sample(ticketRequestBody(), sampleOptions);
    expect(() => expectRefusedOnlyFor(contract, body, { keywords: ['type'], at: /^\/ttl_sec$/ })).toThrow();
  });
});
