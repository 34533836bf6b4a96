// The request plan of a run, from the tests' evaluated plans: each runnable test's own requests,
// each shared request once (a role's token, a read, one exhaustion at its cap), and the
// preflight. `--list` prints it; the runner refuses a plan over --max-requests before sending.
import { PREFLIGHT_REQUESTS, sharedKeys } from '../harness/runner.ts';
import type { PlannedTest } from './suite-runner.ts';

export interface RunPlan {
  tests: PlannedTest[];
  runnable: PlannedTest[];
  skipped: PlannedTest[];
  /** Each shared request and what it costs (the exhaustion: at most its cap). */
  shared: Map<string, number>;
  ownRequests: number;
  total: number;
}

export function planOf(tests: PlannedTest[], exhaustionMax: number): RunPlan {
  const runnable = tests.filter((t) => !t.plan.skip);
  const shared = new Map<string, number>();
  if (runnable.length > 0) shared.set(sharedKeys.token('global'), 1);
  for (const test of runnable) for (const key of test.plan.shared) shared.set(key, key === sharedKeys.exhaustion ? exhaustionMax : 1);
  const ownRequests = runnable.reduce((sum, t) => sum + t.plan.requests, 0);
  const sharedRequests = [...shared.values()].reduce((a, b) => a + b, 0);
  return {
    tests,
    runnable,
    skipped: tests.filter((t) => t.plan.skip),
    shared,
    ownRequests,
    total: ownRequests + sharedRequests + (runnable.length > 0 ? PREFLIGHT_REQUESTS : 0),
  };
}

export function renderPlan(plan: RunPlan, target: string, exhaustionMax: number): string[] {
  const lines = [
    `request plan against ${target}: ${plan.tests.length} tests, ${plan.runnable.length} to run, ${plan.skipped.length} skipped`,
    '',
  ];
  const width = Math.max(...plan.tests.map((t) => t.name.length), 10);
  for (const test of plan.tests) {
    const what = test.plan.skip
      ? `skipped [${test.plan.skip.category}] ${test.plan.skip.reason}`
      : `${test.plan.requests} request${test.plan.requests === 1 ? '' : 's'}${test.plan.shared.length ? ` + shared: ${test.plan.shared.join(', ')}` : ''}`;
    lines.push(`  ${test.name.padEnd(width)}  ${what}`);
  }
  lines.push('', 'shared requests (sent once, read by every test that names them):');
  for (const [key, cost] of plan.shared)
    lines.push(`  ${key}: ${key === sharedKeys.exhaustion ? `up to one bucket, at most ${exhaustionMax}` : cost}`);
  const exhaustion = plan.shared.has(sharedKeys.exhaustion) ? ` (the exhaustion counted at its cap of ${exhaustionMax})` : '';
  lines.push(
    '',
    `total: ${plan.total} requests = ${plan.ownRequests} of the tests + ${plan.total - plan.ownRequests - (plan.runnable.length > 0 ? PREFLIGHT_REQUESTS : 0)} shared + ${plan.runnable.length > 0 ? PREFLIGHT_REQUESTS : 0} preflight${exhaustion}`,
  );
  return lines;
}
