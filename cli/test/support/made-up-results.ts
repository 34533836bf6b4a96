// Made-up results for the tests of the reports: a run's facts, a test's outcome, one passing test
// for every testable clause, and a gating failure as the harness words it.
import { clauses } from '../../../specs/index.ts';
import type { RunInfo, TestOutcome } from '../../reporters/results.ts';

export const info: RunInfo = {
  target: 'a tenant',
  baseUrl: 'https://tenant.example.com/api/v2',
  seed: 42,
  strict: false,
  flags: ['--allow-writes'],
  version: 'suite 1.0.0',
  commit: 'abc123',
  startedAt: '2026-11-23T10:00:00.000Z',
  wallMs: 61_500,
  filtered: false,
  preflightRequests: 2,
  shared: { 'token global': 1 },
  plannedRequests: 120,
  exhaustionMax: 100,
  waitedMs: 4_000,
  unplanned429s: 0,
};

export function outcome(clause: string, state: TestOutcome['state'], extra: Partial<TestOutcome> = {}): TestOutcome {
  const entry = clauses.find((c) => c.id === clause)!;
  return {
    file: `suites/${clause.split('.')[0]}/x.test.ts`,
    line: 12,
    name: `[§${entry.section} ${clause}] a test of ${clause}`,
    fullName: `[§${entry.section} ${clause}] a test of ${clause}`,
    clause,
    section: entry.section,
    level: entry.level,
    state,
    gating: entry.level === 'contract',
    errors: [],
    durationMs: 5,
    plannedRequests: 1,
    requests: 1,
    retries: 0,
    paid: {},
    waitedMs: 0,
    unplanned429s: 0,
    operations: {},
    rateLimit: [],
    ...extra,
  };
}

/** One passing test for every testable clause, then the changes a case needs. */
export function everyClause(change: (tests: TestOutcome[]) => TestOutcome[] = (t) => t): TestOutcome[] {
  return change(clauses.filter((c) => c.testable).map((c) => outcome(c.id, 'passed')));
}

export const failing = (clause: string) =>
  outcome(clause, 'failed', {
    errors: [
      `[§7 ${clause}] summary\n  expected: status 404\n  actual:   status 202\n  response: 202 application/json {}\n  replay:   curl ...`,
    ],
    failure: `[§7 ${clause}] expected status 404; actual status 202`,
  });
