import { describe, expect, it } from 'vitest';
import { SCOPE_FORM, checkScopeString, isScope, observed, operationKeys, operations, scopeActions, scopeCatalogue } from '../index.ts';

describe('scope catalogue', () => {
  it('expands the 90 resources of the table into 245 action:resource scopes', () => {
    expect(new Set(scopeCatalogue.map((s) => s.split(':')[1])).size).toBe(90);
    expect(scopeCatalogue.length).toBe(245);
  });

  it('has no duplicate scope', () => {
    expect(new Set(scopeCatalogue).size).toBe(scopeCatalogue.length);
  });

  it('writes every scope as action:resource with a catalogue action', () => {
    expect(scopeActions).toEqual(['create', 'read', 'update', 'delete']);
    expect(scopeCatalogue.filter((s) => !SCOPE_FORM.test(s))).toEqual([]);
  });

  it.each([
    ['update:event_deliveries', true],
    ['read:event_deliveries', true],
    ['create:event_deliveries', false],
    ['read:flows_vault_connections', true],
    ['create:sso_access_tickets', true],
    ['read:sso_access_tickets', false],
    ['update:client_token_vault_privileged_access', true],
    ['delete:organization_clients', true],
    ['read:organization_clients', false],
    ['write:users', false],
    ['read:Users', false],
    ['read users', false],
    ['', false],
  ])('isScope(%j) is %s', (scope, expected) => {
    expect(isScope(scope)).toBe(expected);
  });

  it('splits a scope claim and names malformed and unknown items', () => {
    expect(checkScopeString('read:users  update:event_deliveries')).toEqual({
      scopes: ['read:users', 'update:event_deliveries'],
      malformed: [],
      unknown: [],
    });
    expect(checkScopeString('write:users read:nothing read:stats')).toEqual({
      scopes: ['write:users', 'read:nothing', 'read:stats'],
      malformed: ['write:users'],
      unknown: ['read:nothing'],
    });
  });

  it('contains the scope of every operation, contract and observed', () => {
    for (const op of operations) for (const scope of op.contractScopes) expect(isScope(scope), scope).toBe(true);
    for (const key of operationKeys) {
      const scope = observed.operations[key].scope.value;
      expect(isScope(scope), scope).toBe(true);
    }
  });
});
