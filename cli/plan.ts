// The request plan of a run, from the tests' evaluated plans: each runnable test's own requests,
// each shared request once (a role's token, a read, one exhaustion at its cap), and the
// preflight. `--list` prints it; the runner refuses a plan over --max-requests before sending.
//
// A token the token cache holds costs nothing. A role's token and the exchange that issued it
// (what the token endpoint's tests read) cost one request between them: the run's one mint of
// that token, unless the token came from the cache, when the exchange is a mint of its own.
import { PREFLIGHT_REQUESTS, sharedKeys } from '../harness/runner.ts';
import { clause, hasClause, parseClauseTag } from '../specs/index.ts';
import type { PlannedTest } from './suite-runner.ts';

/**
 * Requests reserved to send gating failures once more before the verdict (harness/confirm.ts):
 * enough for a few failures of a few requests each. A broken target fails more than that, and its
 * verdict is FAIL after the first confirmed failure anyway.
 */
export const CONFIRMATION_RESERVE = 20;

export interface RunPlan {
  tests: PlannedTest[];
  runnable: PlannedTest[];
  skipped: PlannedTest[];
  /** Each shared request and what it costs (the exhaustion: at most its cap). */
  shared: Map<string, number>;
  ownRequests: number;
  /** Requests reserved to confirm failures (none when nothing runs). */
  confirmationReserve: number;
  total: number;
}

export function planOf(tests: PlannedTest[], exhaustionMax: number, cachedTokens: ReadonlySet<string> = new Set()): RunPlan {
  const runnable = tests.filter((t) => !t.plan.skip);
  const keys = new Set<string>(runnable.length > 0 ? [sharedKeys.token('global')] : []);
  for (const test of runnable) for (const key of test.plan.shared) keys.add(key);
  const cost = (key: string): number => {
    if (key === sharedKeys.exhaustion) return exhaustionMax;
    if (cachedTokens.has(key)) return 0;
    const role = /^token exchange (.+)$/.exec(key)?.[1];
    // The exchange is the role token's own mint when that token is in the plan and not cached.
    if (
      role !== undefined &&
      key === sharedKeys.tokenExchange(role) &&
      keys.has(sharedKeys.token(role)) &&
      !cachedTokens.has(sharedKeys.token(role))
    )
      return 0;
    return 1;
  };
  const shared = new Map([...keys].map((key) => [key, cost(key)] as const));
  const ownRequests = runnable.reduce((sum, t) => sum + t.plan.requests, 0);
  const sharedRequests = [...shared.values()].reduce((a, b) => a + b, 0);
  const confirmationReserve = runnable.length > 0 ? CONFIRMATION_RESERVE : 0;
  return {
    tests,
    runnable,
    skipped: tests.filter((t) => t.plan.skip),
    shared,
    ownRequests,
    confirmationReserve,
    total: ownRequests + sharedRequests + (runnable.length > 0 ? PREFLIGHT_REQUESTS : 0) + confirmationReserve,
  };
}

/**
 * The priority by which --max-requests keeps tests when the plan is over it, so that a short budget
 * verifies as many gating clauses as it can before it verifies any of them deeper: one test of each
 * contract clause (its cheapest), then the rate-limit exhaustion (a contract clause, but a bucket's
 * worth of requests), then the contract's other tests, then one test of each observed clause, then
 * the observed level's other tests; in the plan's order within each. A test costs its own requests
 * and the shared ones no test kept before it has paid for.
 */
function prioritiesOf(tests: readonly PlannedTest[]): Map<PlannedTest, number> {
  const cheapest = new Map<string, PlannedTest>();
  const staticCost = (test: PlannedTest) => test.plan.requests + test.plan.shared.length;
  for (const test of tests) {
    const id = parseClauseTag(test.name)?.id;
    if (id === undefined || test.plan.exhaustion) continue;
    const best = cheapest.get(id);
    if (!best || staticCost(test) < staticCost(best)) cheapest.set(id, test);
  }
  const firsts = new Set(cheapest.values());
  return new Map(
    tests.map((test) => {
      const contract = clauseLevelOf(test.name) === 'contract';
      if (contract) return [test, test.plan.exhaustion ? 1 : firsts.has(test) ? 0 : 2];
      return [test, firsts.has(test) ? 3 : 4];
    }),
  );
}

const PRIORITY_NAMES = [
  'one test of each contract clause',
  'the rate-limit exhaustion',
  'the rest of the contract',
  'one test of each observed clause',
  'the rest of the observed level',
];

function clauseLevelOf(title: string): string | undefined {
  const id = parseClauseTag(title)?.id;
  return id !== undefined && hasClause(id) ? clause(id).level : undefined;
}

/** The tests --max-requests leaves out, by title with the reason, so that the rest fits in the budget; undefined when all fit. */
export function leftOutByBudget(
  tests: PlannedTest[],
  budget: number,
  exhaustionMax: number,
  cachedTokens: ReadonlySet<string> = new Set(),
): Record<string, string> | undefined {
  const plan = planOf(tests, exhaustionMax, cachedTokens);
  if (plan.total <= budget) return undefined;
  const global = sharedKeys.token('global');
  const paid = new Set<string>([global]);
  let spent = PREFLIGHT_REQUESTS + plan.confirmationReserve + (plan.shared.get(global) ?? 0);
  const leftOut: Record<string, string> = {};
  const priority = prioritiesOf(plan.runnable);
  const priorityOf = (test: PlannedTest) => priority.get(test)!;
  const ordered = plan.runnable
    .map((test, order) => ({ test, order }))
    .sort((a, b) => priorityOf(a.test) - priorityOf(b.test) || a.order - b.order);
  for (const { test } of ordered) {
    const fresh = test.plan.shared.filter((key) => !paid.has(key));
    const cost = test.plan.requests + fresh.reduce((sum, key) => sum + (plan.shared.get(key) ?? 1), 0);
    if (spent + cost > budget) {
      leftOut[test.name] =
        `left out by --max-requests ${budget} (the plan needs ${plan.total}); kept first: ${PRIORITY_NAMES.slice(0, priorityOf(test)).join(', ') || 'nothing before it'}; this test is of ${PRIORITY_NAMES[priorityOf(test)]}`;
      continue;
    }
    spent += cost;
    for (const key of fresh) paid.add(key);
  }
  return leftOut;
}

/**
 * What a budget over the plan keeps: the requests of the tests it keeps, and the clauses none of
 * whose tests it keeps (INCOMPLETE in that run), by level.
 */
export function renderBudget(
  planned: { plan: RunPlan; maxRequests: number; exhaustionMax: number; leftOut?: Record<string, string> },
  cachedTokens: ReadonlySet<string> = new Set(),
): string[] {
  const leftOut = planned.leftOut ?? {};
  const kept = planned.plan.runnable.filter((test) => !(test.name in leftOut));
  const keptPlan = planOf(kept, planned.exhaustionMax, cachedTokens);
  const clausesOf = (tests: readonly PlannedTest[]) => new Set(tests.flatMap((test) => parseClauseTag(test.name)?.id ?? []));
  const keptClauses = clausesOf(kept);
  const lost = [...clausesOf(planned.plan.runnable)].filter((id) => !keptClauses.has(id)).sort();
  const byLevel = (level: string) => lost.filter((id) => hasClause(id) && clause(id).level === level);
  const lines = [
    '',
    `within --max-requests ${planned.maxRequests}: ${kept.length} of ${planned.plan.runnable.length} tests kept, ${keptPlan.total} requests; ${Object.keys(leftOut).length} left out by priority (${PRIORITY_NAMES.join(', then ')})`,
  ];
  for (const level of ['contract', 'observed']) {
    const ids = byLevel(level);
    lines.push(`  ${level} clauses with no test kept (INCOMPLETE): ${ids.length === 0 ? 'none' : ids.join(', ')}`);
  }
  return lines;
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
    lines.push(`  ${key}: ${key === sharedKeys.exhaustion ? `up to one bucket, at most ${exhaustionMax}` : cost}${sharedNote(key, cost)}`);
  const exhaustion = plan.shared.has(sharedKeys.exhaustion) ? ` (the exhaustion counted at its cap of ${exhaustionMax})` : '';
  const preflight = plan.runnable.length > 0 ? PREFLIGHT_REQUESTS : 0;
  lines.push(
    '',
    `total: ${plan.total} requests = ${plan.ownRequests} of the tests + ${plan.total - plan.ownRequests - preflight - plan.confirmationReserve} shared + ${preflight} preflight + ${plan.confirmationReserve} to confirm failures${exhaustion}`,
  );
  return lines;
}

/** Why a token costs nothing: the cache holds it, or the run mints it once for its token and its exchange. */
function sharedNote(key: string, cost: number): string {
  if (cost !== 0) return '';
  if (key.startsWith('token exchange ')) return ' (the mint of its token)';
  return key.startsWith('token ') ? ' (from the token cache)' : '';
}
