// ticketRequestBody: valid at both levels, realistic in what it combines, and faithful to the ids
// it is given.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { validator } from '../../specs/index.ts';
import {
  connectionName,
  ticketRequestBody,
  ticketRequestBodyWithEveryField,
  ticketRequestBodyWithFieldValue,
  type TicketRequestBody,
} from '../index.ts';
import { INDEPENDENT_FIELDS } from '../ticket/ticket-request-body.ts';
import { runs, sampleOptions } from './support/runs.ts';
import { expectRefusedOnlyFor, expectValid } from './support/schema-expectations.ts';

const contract = validator('SsoTicketRequest', 'contract');
const observedLevel = validator('SsoTicketRequest', 'observed');

describe('ticketRequestBody', () => {
  it('is valid at the contract and the observed level', () => {
    fc.assert(
      fc.property(ticketRequestBody(), (body) => {
        expectValid(contract, body);
        expectValid(observedLevel, body);
      }),
      runs,
    );
  });

  it('never sends connection_id with connection_config, and enabled_features only with connection_id', () => {
    fc.assert(
      fc.property(ticketRequestBody(), (body) => {
        expect('connection_id' in body && 'connection_config' in body).toBe(false);
        if ('enabled_features' in body) expect(body).toHaveProperty('connection_id');
      }),
      runs,
    );
  });

  it('gives every field', () => {
    const seen = new Set(fc.sample(ticketRequestBody(), { ...sampleOptions, numRuns: 200 }).flatMap((body) => Object.keys(body)));
    expect([...seen].sort()).toEqual([
      'connection_config',
      'connection_id',
      'domain_aliases_config',
      'enabled_clients',
      'enabled_features',
      'enabled_organizations',
      'provisioning_config',
      'third_party_client_access_config',
      'ttl_sec',
      'use_for_organization_discovery',
    ]);
  });

  it('gives the observed fields of nested objects too', () => {
    const bodies = fc.sample(ticketRequestBody(), { ...sampleOptions, numRuns: 200 });
    const nested = new Set(
      bodies.flatMap((body) => [...Object.keys(body.connection_config ?? {}), ...Object.keys(body.provisioning_config ?? {})]),
    );
    expect(nested).toEqual(
      new Set(['name', 'display_name', 'is_domain_connection', 'show_as_button', 'scopes', 'token_lifetime', 'google_workspace']),
    );
  });

  it('draws ids only from the lists it is given', () => {
    const constraints = {
      connectionIds: ['con_existing0000001'],
      clientIds: ['client-a', 'client-b'],
      organizationIds: ['org_existing0000001'],
    };
    fc.assert(
      fc.property(ticketRequestBody(constraints), (body: TicketRequestBody) => {
        if (body.connection_id !== undefined) expect(constraints.connectionIds).toContain(body.connection_id);
        for (const client of body.enabled_clients ?? []) expect(constraints.clientIds).toContain(client);
        for (const item of body.enabled_organizations ?? []) expect(constraints.organizationIds).toContain(item.organization_id);
      }),
      runs,
    );
  });

  it('leaves out a field whose list of ids is empty', () => {
    fc.assert(
      fc.property(ticketRequestBody({ connectionIds: [], clientIds: [], organizationIds: [] }), (body) => {
        expect(body).not.toHaveProperty('connection_id');
        expect(body).not.toHaveProperty('enabled_clients');
        expect(body).not.toHaveProperty('enabled_organizations');
      }),
      runs,
    );
  });

  it('the validity check refuses a body with ttl_sec over the maximum', () => {
    expect(() => expectValid(contract, { ttl_sec: 432001 })).toThrow();
  });
});

describe('connectionName', () => {
  it('follows the observed form and does not repeat', () => {
    const names = fc.sample(connectionName(), { ...sampleOptions, numRuns: 300 });
    for (const name of names) expect(name).toMatch(/^[A-Za-z0-9]+(-[A-Za-z0-9]+)*$/);
    expect(new Set(names).size).toBe(names.length);
    expect(names.some((name) => name.length === 128)).toBe(true);
  });
});

describe('ticketRequestBodyWithFieldValue', () => {
  it('places the value inside a valid parent and leaves the body valid otherwise', () => {
    fc.assert(
      fc.property(ticketRequestBodyWithFieldValue('enabled_organizations[].organization_id', fc.constant(7)), (body) => {
        expectRefusedOnlyFor(contract, body, { keywords: ['type'], at: /^\/enabled_organizations\/\d+\/organization_id$/ });
      }),
      runs,
    );
  });

  it('inserts into an array for a path ending in []', () => {
    fc.assert(
      fc.property(ticketRequestBodyWithFieldValue('enabled_clients[]', fc.constant('inserted')), (body) => {
        expect(body.enabled_clients).toContain('inserted');
      }),
      runs,
    );
  });

  it('drops connection_id when the field is connection_config', () => {
    fc.assert(
      fc.property(ticketRequestBodyWithFieldValue('connection_config', fc.constant({ name: 'x' })), (body) => {
        expect(body).not.toHaveProperty('connection_id');
        expect(body).not.toHaveProperty('enabled_features');
      }),
      runs,
    );
  });

  it('refuses a field the ticket request does not have', () => {
    expect(() => ticketRequestBodyWithFieldValue('nested.unknown', fc.constant(1))).toThrow(/no field nested/);
  });
});

describe('ticketRequestBodyWithEveryField', () => {
  it('gives bodies valid at both levels holding every field, editing the connection it is given', () => {
    fc.assert(
      fc.property(ticketRequestBodyWithEveryField({ connectionIds: ['con_6kG6vTEQLMczF3qe'] }), (body) => {
        expectValid(contract, body);
        expectValid(observedLevel, body);
        expect(Object.keys(body).sort()).toEqual([...INDEPENDENT_FIELDS, 'connection_id', 'enabled_features'].sort());
      }),
      runs,
    );
  });

  it('configures a new connection when no connection is given', () => {
    const [body] = fc.sample(ticketRequestBodyWithEveryField(), { numRuns: 1, seed: 1 });
    expect(body).toHaveProperty('connection_config');
    expect(body).not.toHaveProperty('connection_id');
  });
});
