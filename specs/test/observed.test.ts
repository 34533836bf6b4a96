import { describe, expect, it } from 'vitest';
import { alphabetOf, closedLimit, limit, observed, operation, operationKeys, shapeOfFormat } from '../index.ts';

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

  it('names an identifier shape for every id format', () => {
    for (const format of Object.keys(observed.identifier_formats)) expect(shapeOfFormat(format).length, format).toBeGreaterThan(0);
    expect(() => shapeOfFormat('no-such-id')).toThrow(/no identifier shape/);
  });

  it('gives the published rate-limit profiles a burst and a positive refill, production above free', () => {
    const { free, production } = observed.rate_limit.profiles;
    for (const profile of [free, production, observed.tokens.rate_limit]) {
      expect(Number.isInteger(profile.bucket_size) && profile.bucket_size > 0).toBe(true);
      expect(profile.refill_per_second).toBeGreaterThan(0);
    }
    expect(production.refill_per_second).toBeGreaterThan(free.refill_per_second);
  });
});
