import { describe, expect, it } from 'vitest';
import { alphabetOf, closedLimit, limit, observed, operation, operationKeys } from '../index.ts';

describe('observed facts', () => {
  it('describes each of the three operations', () => {
    expect(Object.keys(observed.operations).sort()).toEqual([...operationKeys].sort());
  });

  it('agrees with the contract where the contract speaks', () => {
    expect(observed.operations.redeliver.success.status).toBe(202);
    expect(observed.operations.redeliver.scope.value).toBe(operation('redeliver').contractScopes[0]);
    for (const key of operationKeys) expect(observed.operations[key].failure_statuses, key).toContain(429);
  });

  it('has a reason phrase for every error status it names', () => {
    const statuses = new Set([
      ...Object.values(observed.errors).map((e) => e.status),
      ...operationKeys.flatMap((k) => observed.operations[k].failure_statuses),
    ]);
    for (const status of statuses) expect(observed.reason_phrases[status], String(status)).toBeTruthy();
  });

  it('gives every error fact either a message or a prefix', () => {
    for (const [kind, fact] of Object.entries(observed.errors)) {
      expect(Boolean(fact.message) !== Boolean(fact.prefix), kind).toBe(true);
    }
  });

  it('has identifier shapes within the contract limits', () => {
    const ids = observed.identifiers;
    const streamIds = closedLimit('redeliver.path.id.length');
    expect(ids.event_stream.length).toBe(streamIds.max);
    expect(ids.event.length).toBe(closedLimit('redeliver.path.event_id.length').max);
    expect(ids.flows_vault_connection.length).toBeLessThanOrEqual(limit('vault.path.id.length').max!);
    for (const shape of [ids.event_stream, ids.event, ids.self_service_profile, ids.flows_vault_connection]) {
      expect(shape.prefix.length).toBeLessThan(shape.length);
      expect(alphabetOf(shape)).toBe(ids.base58_alphabet);
    }
  });

  it('uses a base58 alphabet without 0, O, I and l', () => {
    const alphabet = observed.identifiers.base58_alphabet;
    expect(alphabet.length).toBe(58);
    expect([...'0OIl'].filter((c) => alphabet.includes(c))).toEqual([]);
  });
});
