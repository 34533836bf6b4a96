// --max-requests over the plan: which tests it keeps. A short budget verifies as many gating
// clauses as it can before it verifies any of them deeper, and leaves the observed level last.
import { describe, expect, test } from 'vitest';
import { PREFLIGHT_REQUESTS, sharedKeys, type EvaluatedPlan } from '../../harness/runner.ts';
import { clause } from '../../specs/index.ts';
import { CONFIRMATION_RESERVE, leftOutByBudget, planOf, renderBudget } from '../plan.ts';
import type { PlannedTest } from '../suite-runner.ts';

/** The preflight and the global role's token, paid before any test. */
const PREFLIGHT_AND_TOKEN = PREFLIGHT_REQUESTS + 1;

function planned(id: string, name: string, plan: Partial<EvaluatedPlan> = {}): PlannedTest {
  const full: EvaluatedPlan = { requests: 1, shared: [], roles: [], fixtures: [], tokens: [], writes: false, exhaustion: false, ...plan };
  return { file: 'suites/x.test.ts', name: `[§${clause(id).section} ${id}] ${name}`, plan: full };
}

describe('leftOutByBudget', () => {
  // Two contract clauses, the first with three tests written before the second's one; an observed clause.
  const tests = [
    planned('vault.record.id', 'one', { requests: 2 }),
    planned('vault.record.id', 'two', { requests: 2 }),
    planned('vault.record.id', 'three', { requests: 1 }),
    planned('vault.record.name', 'the only one', { requests: 2 }),
    planned('vault.response.shape', 'observed', { requests: 1 }),
    planned('redeliver.errors.429', 'the exhaustion', { requests: 0, shared: [sharedKeys.exhaustion] }),
  ];
  const fixed = PREFLIGHT_AND_TOKEN + CONFIRMATION_RESERVE;

  test('keeps the cheapest test of each contract clause before a second test of any', () => {
    const leftOut = Object.keys(leftOutByBudget(tests, fixed + 3, 10)!);
    expect(clause('vault.response.shape').level).toBe('observed');
    // "three" (1 request) and "the only one" (2) fit in 3; the first two tests of vault.record.id do not.
    expect(leftOut.map((name) => name.replace(/^\[§[^\]]+\] /, '')).sort()).toEqual(['observed', 'one', 'the exhaustion', 'two']);
  });

  test('then the exhaustion, then the rest of the contract, then the observed level', () => {
    const reasons = leftOutByBudget(tests, fixed + 3 + 10 + 2, 10)!;
    const left = Object.keys(reasons).map((name) => name.replace(/^\[§[^\]]+\] /, ''));
    expect(left.sort()).toEqual(['observed', 'two']);
    expect(Object.values(reasons)[0]).toMatch(
      /kept first: one test of each contract clause, the rate-limit exhaustion; this test is of the rest of the contract/,
    );
  });

  test('leaves nothing out when the plan fits', () => {
    expect(leftOutByBudget(tests, 1000, 10)).toBeUndefined();
  });

  test('--list with a budget prints what it keeps and the clauses it leaves without a test', () => {
    const maxRequests = fixed + 3;
    const plan = planOf(tests, 10);
    const lines = renderBudget({ plan, maxRequests, exhaustionMax: 10, leftOut: leftOutByBudget(tests, maxRequests, 10)! });
    // "three" and "the only one" kept: 3 requests of tests, the preflight, the token, the reserve.
    expect(lines[1]).toBe(
      `within --max-requests ${maxRequests}: 2 of 6 tests kept, ${maxRequests} requests; 4 left out by priority (one test of each contract clause, then the rate-limit exhaustion, then the rest of the contract, then one test of each observed clause, then the rest of the observed level)`,
    );
    expect(lines.slice(2)).toEqual([
      '  contract clauses with no test kept (INCOMPLETE): redeliver.errors.429',
      '  observed clauses with no test kept (INCOMPLETE): vault.response.shape',
    ]);
  });
});
