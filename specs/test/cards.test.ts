// The operation cards agree with the rest of specs/: one card per operation of the OpenAPI document,
// each naming clauses the registry has, and every per-operation fact of the registry (a clause's
// `operations`) is what the cards and their matrix make of it, so that a card added or changed
// cannot leave the registry stale.
import { describe, expect, it } from 'vitest';
import type { OperationCard } from '../cards/card.ts';
import { fixtureTable, statedRecordSchema, type FixtureEntry } from '../cards/fixtures.ts';
import { cards } from '../cards/index.ts';
import { clauses, hasClause } from '../clauses.ts';
import { operationKeys } from '../openapi.ts';
import { matrix } from '../matrix/index.ts';
import { canonicalContext } from '../matrix/template.ts';
import { compileNode } from '../index.ts';

const all: OperationCard[] = Object.values(cards);

describe('the operation cards', () => {
  it('are one per operation of the OpenAPI document, each with its own spec', () => {
    expect(all.map((card) => card.key).sort()).toEqual([...operationKeys].sort());
    for (const card of all) expect(card.spec.key).toBe(card.key);
  });

  it('name only clauses of the registry', () => {
    const named = all.flatMap((card) => [
      card.scope.clause,
      ...card.scope.statusClauses,
      card.success.clause,
      card.unauthenticated.clause,
      card.unauthenticated.signatureClause,
      ...(card.globalClient ? [card.globalClient.clause, card.globalClient.statusClause] : []),
      ...Object.values(card.params).flatMap((rule) => [...rule.unknown, ...(rule.otherOwner?.checks ?? [])].map((c) => c.clause)),
    ]);
    expect(named.filter((id) => !hasClause(id))).toEqual([]);
  });

  it('give each clause that lists its operations exactly the operations whose rows cite it', () => {
    const { operations: rows } = matrix();
    for (const clause of clauses.filter((c) => c.operations)) {
      const citing = operationKeys.filter((op) =>
        rows[op].some((row) => 'checks' in row.expectation && row.expectation.checks.some((c) => c.clause === clause.id)),
      );
      expect([...clause.operations!].sort(), clause.id).toEqual([...citing].sort());
    }
  });

  it('name in their paths only fixtures with a sample, the value the matrix describes its rows with', () => {
    const named = all.flatMap((card) => Object.values(card.params).map((rule) => rule.fixture));
    expect(named.filter((fixture) => !(fixtureTable[fixture] as FixtureEntry).sample)).toEqual([]);
    expect(named.filter((fixture) => canonicalContext.fixtures[fixture] === undefined)).toEqual([]);
  });

  it('have a scope of the section 5 catalogue, and a role without it for each', () => {
    expect(new Set(all.map((card) => card.roleWithoutScope)).size).toBe(all.length);
    for (const card of all) expect(card.scope.value).toMatch(/^(create|read|update|delete):[a-z_]+$/);
  });
});

describe('a stated record', () => {
  it("names its records by the ids of a list fixture (what a stated record's id must be one of)", () => {
    const entries = Object.values(fixtureTable) as FixtureEntry[];
    const ofNonList = entries.filter(
      (entry) => entry.records && !(fixtureTable[entry.records.of as keyof typeof fixtureTable] as FixtureEntry | undefined)?.list,
    );
    expect(ofNonList.map((entry) => entry.field)).toEqual([]);
  });

  it('of a schema without optional fields lists nothing unset, and compiles (no empty enum)', () => {
    const validate = compileNode(statedRecordSchema('SsoTicket'), 'contract');
    expect(validate({ ticket: 'https://tenant.example.com/self-service/connections-flow?ticket=abc' })).toBe(true);
    expect(validate({ ticket: 'https://tenant.example.com/self-service/connections-flow?ticket=abc', unset: ['ticket'] })).toBe(false);
  });
});
