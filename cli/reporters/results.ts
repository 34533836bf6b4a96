// The outcome of a conformance run, read from vitest's test modules and joined with the clause
// registry and the plan: what every report is written from. Plain data (results.json holds it),
// so sharded runs merge by reading each other's results.
import { relative } from 'node:path';
import type { TestCase, TestModule } from 'vitest/node';
import { clauses as registry, operationKeys, type ClauseLevel } from '../../specs/index.ts';
import {
  leavesClauseUnverified,
  parseSkipNote,
  redactor,
  type Confirmation,
  type EvaluatedPlan,
  type PacingReport,
  type PreflightBreach,
  type RateLimitPoint,
  type SkipCategory,
} from '../../harness/runner.ts';
import type { TestTokenUse, TokenReport } from '../token-report.ts';
import { citedClause } from '../tags.ts';
import { failureSummary } from './failure-summary.ts';

/** 'failed': the target broke the clause; 'error': the suite itself erred in the test (a bug to report). */
export type TestState = 'passed' | 'failed' | 'error' | 'skipped';

export interface TestOutcome {
  file: string;
  /** Line of the test in its file, where vitest knows it. */
  line?: number;
  name: string;
  fullName: string;
  clause?: string;
  section?: string;
  level?: ClauseLevel;
  state: TestState;
  /** Whether this test's failure fails the run. */
  gating: boolean;
  /** 'stopped': the run stopped (RunInfo.stopped) before the test could run. */
  skip?: { category?: SkipCategory | 'stopped'; reason: string };
  /** One line: clause, expected and actual (the JUnit failure message, the annotation); or the suite's error. */
  failure?: string;
  /** The failure in full: clause, expected, actual, response excerpt, replay line. */
  errors: string[];
  /** Listed in the baseline of known failures: its failure does not gate. */
  known?: { reason: string };
  durationMs: number;
  plannedRequests: number;
  /** Own requests sent; 429s retried outside the plan; shared requests this test paid for. */
  requests: number;
  retries: number;
  paid: Record<string, number>;
  waitedMs: number;
  unplanned429s: number;
  operations: Record<string, number>;
  /** The rate-limit headers of each answer of the management interface the test saw. */
  rateLimit: RateLimitPoint[];
  /** Tokens the test minted and reused (cli/token-report.ts). */
  tokens?: TestTokenUse;
  /** Its gating failure sent once more before the verdict (harness/confirm.ts). */
  confirmation?: Confirmation;
  /** What the pacer knew of the target's rate limit after this test (harness/pacer.ts). */
  pacing?: PacingReport;
}

export type ClauseStatus = 'verified' | 'failed' | 'failed (known)' | 'partial' | 'not verified' | 'not selected' | 'not testable' | 'gap';

export interface ClauseResult {
  id: string;
  section: string;
  level: ClauseLevel;
  summary: string;
  /** Whether the clause decides the verdict (contract, or observed with --strict). */
  gating: boolean;
  status: ClauseStatus;
  passed: number;
  failed: number;
  /** Its tests in which the suite itself erred: they leave it unverified, never failed. */
  errored: number;
  skipped: number;
  /** Why the clause is not verified (partial or not verified), each "[category] reason". */
  reasons: string[];
  /** Not testable: why. */
  note?: string;
}

/**
 * PASS: every gating clause verified and passed. FAIL: the target broke a gating clause.
 * INCOMPLETE: none broken, but some gating clause not verified (or the run stopped: see
 * RunInfo.stopped). ERROR: the suite itself erred, which says nothing of the target.
 */
export type Verdict = 'PASS' | 'FAIL' | 'INCOMPLETE' | 'ERROR';

/**
 * Why a run stopped before its tests were done, and whose doing it was: 'target', it could not be
 * tested as asked (its token endpoint unusable, unreachable, answers too large for the test
 * worker); 'rate-limit', its rate limit would keep the suite waiting past its time bound;
 * 'suite', the suite itself erred.
 */
export interface RunStopped {
  cause: 'target' | 'rate-limit' | 'suite';
  reason: string;
}

const STOP_CAUSES: Record<RunStopped['cause'], string> = {
  target: 'the target could not be tested as asked',
  'rate-limit': "the target's rate limit",
  suite: 'the suite itself erred',
};

/** "The run stopped (whose doing): reason", for every report. */
export function stoppedLine(stopped: RunStopped): string {
  return `The run stopped (${STOP_CAUSES[stopped.cause]}): ${stopped.reason}`;
}

/** What a reader of a run where the suite erred is asked to do. */
export const BUG_REPORT =
  "The suite itself erred: that is a bug of the suite, not a verdict on the target. Please report it to the suite's maintainers with this output, the seed and results.json.";

/** Facts about the run that are not in the test results. */
export interface RunInfo {
  target: string;
  baseUrl: string;
  seed: number;
  strict: boolean;
  flags: string[];
  version: string;
  commit: string;
  startedAt: string;
  wallMs: number;
  shard?: { index: number; count: number };
  /** --grep, --grep-invert or --operation left tests out: unselected clauses are not verified. */
  filtered: boolean;
  /** Requests sent before the suite (the runner's preflight: a token and a probe). */
  preflightRequests: number;
  /** Shared requests of the run: what each cost. */
  shared: Record<string, number>;
  /** Planned requests of the run (tests + shared + preflight), and the exhaustion's cap within it. */
  plannedRequests: number;
  exhaustionMax: number;
  /** Time spent waiting for the target's rate limit, and 429s the suite got where it did not spend the limit on purpose. */
  waitedMs: number;
  unplanned429s: number;
  /** Why the run stopped before its tests were done, if it did. */
  stopped?: RunStopped;
  /** What the run spent of the tenant's tokens (cli/token-report.ts). */
  tokens?: TokenReport;
  /** Failures sent once more: the plan's reserve for it, the requests spent, and the outcomes. */
  confirmations?: ConfirmationTally;
  /** What the pacer learnt of the target's rate limit over the run (the last test's account). */
  pacing?: PacingReport;
}

export interface ConfirmationTally {
  reserve: number;
  requests: number;
  reproduced: number;
  notReproduced: number;
  notConfirmed: number;
}

export interface RunResult {
  verdict: Verdict;
  info: RunInfo;
  tests: TestOutcome[];
  clauses: ClauseResult[];
  /** Errors outside any test (a file that failed to load, an unhandled rejection). */
  unhandled: string[];
  /** Tests without a clause tag, or citing a clause the registry does not have. */
  untagged: string[];
  contract: Tally;
  observed: Tally;
  /** Requests sent in all: tests' own, their retries, shared requests and the preflight. */
  requests: number;
  /** Known failures (baseline) that passed: the baseline can shrink. */
  fixedKnownFailures: string[];
}

export interface Tally {
  passed: number;
  failed: number;
  /** Tests in which the suite itself erred. */
  errored: number;
  skipped: number;
}

/** Known failures of a target: clause ids or test titles, each with the reason it is known. */
export type Baseline = ReadonlyArray<{ match: string; reason: string }>;

/** The tests of vitest's modules that are part of this run (a filter's leftovers are not). */
export function testsOf(
  modules: ReadonlyArray<TestModule>,
  strict: boolean,
  root: string,
  baseline: Baseline = [],
): { tests: TestOutcome[]; unhandled: string[] } {
  const tests: TestOutcome[] = [];
  const unhandled: string[] = [];
  for (const module of modules) {
    const file = relative(root, module.moduleId);
    for (const error of module.errors()) unhandled.push(redactor.redact(`${file}: ${error.message}`));
    for (const test of module.children.allTests()) {
      const outcome = outcomeOf(test, file, strict, baseline);
      if (outcome.skip?.category !== 'not-selected') tests.push(outcome);
    }
  }
  return { tests, unhandled };
}

function outcomeOf(test: TestCase, file: string, strict: boolean, baseline: Baseline): TestOutcome {
  const result = test.result();
  const known = citedClause(test.name);
  const meta = test.meta();
  const plan: EvaluatedPlan | undefined = meta.plan;
  const state: TestState =
    result.state === 'passed' ? 'passed' : result.state !== 'failed' ? 'skipped' : meta.suiteError ? 'error' : 'failed';
  const note =
    result.state === 'skipped' ? (result.note ?? (plan?.skip ? `[${plan.skip.category}] ${plan.skip.reason}` : undefined)) : undefined;
  const errors = (result.errors ?? []).map((e) => redactor.redact(withoutStackFrames(e.message ?? JSON.stringify(e))));
  const listed = baseline.find((entry) => entry.match === known?.id || entry.match === test.name);
  const level = known?.level;
  return {
    file,
    ...(test.location ? { line: test.location.line } : {}),
    name: test.name,
    fullName: test.fullName,
    ...(known ? { clause: known.id, section: known.section, level: known.level } : {}),
    state,
    // An untagged test, or one citing an unknown clause, gates: the meta rule is part of the contract run.
    gating: gates(level, listed !== undefined, strict),
    ...(note !== undefined ? { skip: redactSkip(parseSkipNote(note)) } : {}),
    ...(state === 'failed' ? { failure: redactor.redact(failureSummary(test.name, errors)) } : {}),
    ...(state === 'error' ? { failure: redactor.redact(`suite error (not the target's): ${failureSummary(test.name, errors)}`) } : {}),
    errors,
    ...(listed ? { known: { reason: listed.reason } } : {}),
    durationMs: Math.round(test.diagnostic()?.duration ?? 0),
    plannedRequests: plan?.skip ? 0 : (plan?.requests ?? 0),
    requests: meta.requests ?? 0,
    retries: meta.retries ?? 0,
    paid: meta.paid ?? {},
    waitedMs: meta.waitedMs ?? 0,
    unplanned429s: meta.unplanned429s ?? 0,
    operations: meta.operations ?? {},
    rateLimit: meta.rateLimit ?? [],
    ...(meta.tokens ? { tokens: meta.tokens } : {}),
    ...(meta.confirmation ? { confirmation: meta.confirmation } : {}),
    ...(meta.pacing ? { pacing: meta.pacing } : {}),
  };
}

/**
 * The test a preflight's answer stands for when that answer broke a clause of the contract (a
 * redirect of the spec's token URL): failed, with the clause, expected and actual of the exchange
 * it saw, gating as a suite's test of that clause would be (the baseline applies).
 */
export function breachOutcome(breach: PreflightBreach, strict: boolean, baseline: Baseline = []): TestOutcome {
  const known = citedClause(breach.title);
  const errors = [redactor.redact(`${breach.title}\nexpected: ${breach.expected}\nactual: ${breach.actual}`)];
  const listed = baseline.find((entry) => entry.match === known?.id || entry.match === breach.title);
  const level = known?.level;
  return {
    file: 'harness/preflight.ts',
    name: breach.title,
    fullName: `preflight > ${breach.title}`,
    ...(known ? { clause: known.id, section: known.section, level: known.level } : {}),
    state: 'failed',
    gating: gates(level, listed !== undefined, strict),
    failure: redactor.redact(failureSummary(breach.title, errors)),
    errors,
    ...(listed ? { known: { reason: listed.reason } } : {}),
    ...sentNothing(),
  };
}

/** The account of an outcome that no suite test sent (a preflight's, a recording's): no time, no request. */
export function sentNothing(): Pick<
  TestOutcome,
  'durationMs' | 'plannedRequests' | 'requests' | 'retries' | 'paid' | 'waitedMs' | 'unplanned429s' | 'operations' | 'rateLimit'
> {
  return {
    durationMs: 0,
    plannedRequests: 0,
    requests: 0,
    retries: 0,
    paid: {},
    waitedMs: 0,
    unplanned429s: 0,
    operations: {},
    rateLimit: [],
  };
}

/** Whether an outcome's failure fails the run: a contract clause's (observed with --strict), or an untagged test's, unless the baseline knows it. */
function gates(level: ClauseLevel | undefined, listed: boolean, strict: boolean): boolean {
  return !listed && (level === undefined || level === 'contract' || (level === 'observed' && strict));
}

function redactSkip(skip: { category: SkipCategory | undefined; reason: string }): TestOutcome['skip'] {
  return { ...(skip.category ? { category: skip.category } : {}), reason: redactor.redact(skip.reason) };
}

/** fast-check puts the failing assertion, stack and all, inside its message; the frames say nothing to a reader. */
function withoutStackFrames(message: string): string {
  return message
    .split('\n')
    .filter((line) => !/^\s+at .+:\d+:\d+\)?$/.test(line))
    .join('\n');
}

/** Joins tests to the registry: each clause's status, and the run's verdict. */
export function summarize(tests: TestOutcome[], unhandled: string[], info: RunInfo): RunResult {
  const untagged = tests.filter((t) => !t.clause).map((t) => `${t.file}: ${t.name}`);
  const clauses = registry.map((entry) =>
    clauseResult(
      entry,
      tests.filter((t) => t.clause === entry.id),
      info,
    ),
  );
  const tally = (level: ClauseLevel): Tally => {
    const count = (state: TestState) => tests.filter((t) => t.level === level && t.state === state).length;
    return { passed: count('passed'), failed: count('failed'), errored: count('error'), skipped: count('skipped') };
  };
  const fixedKnownFailures = tests.filter((t) => t.known && t.state === 'passed').map((t) => t.name);
  const requests =
    tests.reduce((sum, t) => sum + t.requests + t.retries + (t.confirmation?.requests ?? 0), 0) +
    Object.values(info.shared).reduce((a, b) => a + b, 0) +
    info.preflightRequests;
  return {
    verdict: verdictOf(tests, clauses, unhandled, untagged, info),
    info,
    tests,
    clauses,
    unhandled,
    untagged,
    contract: tally('contract'),
    observed: tally('observed'),
    requests,
    fixedKnownFailures,
  };
}

/**
 * The three kinds of outcome, never mixed: the target broke a gating clause (FAIL); the suite
 * erred, in a test, outside tests, or in a test without a known clause (ERROR: nothing said of
 * the target); some gating clause is not verified, or the run stopped (INCOMPLETE).
 */
function verdictOf(tests: TestOutcome[], clauses: ClauseResult[], unhandled: string[], untagged: string[], info: RunInfo): Verdict {
  if (tests.some((t) => t.state === 'failed' && t.gating)) return 'FAIL';
  const suiteErred =
    tests.some((t) => t.state === 'error') || untagged.length > 0 || unhandled.length > 0 || info.stopped?.cause === 'suite';
  if (suiteErred) return 'ERROR';
  const unverified = clauses.some((c) => c.gating && isUnverified(c, info));
  return unverified || tests.length === 0 || info.stopped ? 'INCOMPLETE' : 'PASS';
}

function clauseResult(entry: (typeof registry)[number], mine: TestOutcome[], info: RunInfo): ClauseResult {
  const gating = entry.testable && (entry.level === 'contract' || (entry.level === 'observed' && info.strict));
  const count = (state: TestState) => mine.filter((t) => t.state === state).length;
  const counts = { passed: count('passed'), failed: count('failed'), errored: count('error'), skipped: count('skipped') };
  const base = { id: entry.id, section: entry.section, level: entry.level, summary: entry.summary, gating, ...counts };
  if (entry.level === 'gap') return { ...base, status: 'gap', reasons: [] };
  if (!entry.testable) return { ...base, status: 'not testable', reasons: [], ...(entry.reason ? { note: entry.reason } : {}) };
  const unverifying = mine.filter(
    (t) => t.state === 'error' || (t.state === 'skipped' && (t.skip?.category === 'stopped' || leavesClauseUnverified(t.skip?.category))),
  );
  const reasons = [
    ...new Set(
      unverifying.map((t) =>
        t.state === 'error'
          ? `[suite-error] ${t.failure ?? 'the suite erred'}`
          : `[${t.skip?.category ?? 'skipped'}] ${t.skip?.reason ?? 'skipped'}`,
      ),
    ),
  ];
  const failed = mine.filter((t) => t.state === 'failed');
  if (failed.length > 0) return { ...base, status: failed.every((t) => t.known) ? 'failed (known)' : 'failed', reasons };
  if (mine.length === 0 && info.stopped) {
    return {
      ...base,
      status: 'not verified',
      reasons: [`[${info.stopped.cause === 'rate-limit' ? 'rate-limit' : 'stopped'}] ${info.stopped.reason}`],
    };
  }
  if (mine.length === 0) return { ...base, status: 'not selected', reasons };
  if (counts.passed > 0) return { ...base, status: unverifying.length > 0 ? 'partial' : 'verified', reasons };
  if (reasons.length > 0) return { ...base, status: 'not verified', reasons };
  // Only tests that leave a clause verified when they cannot run (generated cases the run does
  // not ask for, tokens only the signing key makes): in a shard, the clause's other tests may be
  // in another shard, which the merge reads.
  if (info.shard) {
    return {
      ...base,
      status: 'not selected',
      reasons: ['[not-selected] no test of it can run in this shard; its other tests are in another shard, and the merge tells'],
    };
  }
  return { ...base, status: 'not verified', reasons: ['[not-applicable] no test of it can run against this target'] };
}

/** A gating clause the run did not verify. A shard answers only for its own clauses: the merge checks the rest. */
export function isUnverified(clause: ClauseResult, info: Pick<RunInfo, 'shard'>): boolean {
  if (clause.status === 'partial' || clause.status === 'not verified') return true;
  return clause.status === 'not selected' && info.shard === undefined;
}

/** Why a gating clause is not verified, for the console, summary.md and the JUnit properties. */
export function unverifiedReasons(result: RunResult): Array<{ id: string; reasons: string[] }> {
  return result.clauses
    .filter((c) => c.gating && isUnverified(c, result.info))
    .map((c) => ({ id: c.id, reasons: c.status === 'not selected' ? [notSelectedReason(result.info)] : c.reasons }));
}

function notSelectedReason(info: RunInfo): string {
  if (info.stopped) return `[stopped] ${info.stopped.reason}`;
  return info.filtered
    ? '[not-selected] no test of it was selected (--grep, --grep-invert or --operation)'
    : '[not-selected] no test of it ran';
}

export interface OperationCoverage {
  operation: string;
  /** Tests that sent to the operation, or cite one of its clauses. */
  tests: number;
  passed: number;
  failed: number;
  skipped: number;
  /** Requests the tests sent to it. */
  requests: number;
}

/** Per operation of the interface, and the token and key endpoints: its tests, their outcomes and its requests. */
export function operationCoverage(tests: readonly TestOutcome[]): OperationCoverage[] {
  return [...operationKeys, 'token', 'jwks'].map((operation) => {
    const mine = tests.filter((t) => (t.operations[operation] ?? 0) > 0 || (t.clause?.startsWith(`${operation}.`) ?? false));
    const by = (state: TestState) => mine.filter((t) => t.state === state).length;
    const requests = tests.reduce((sum, t) => sum + (t.operations[operation] ?? 0), 0);
    return { operation, tests: mine.length, passed: by('passed'), failed: by('failed'), skipped: by('skipped'), requests };
  });
}

/** The confirmations of a run's tests, against the plan's reserve. */
export function confirmationTally(tests: readonly TestOutcome[], reserve: number): ConfirmationTally {
  const count = (outcome: Confirmation['outcome']) => tests.filter((t) => t.confirmation?.outcome === outcome).length;
  return {
    reserve,
    requests: tests.reduce((sum, t) => sum + (t.confirmation?.requests ?? 0), 0),
    reproduced: count('reproduced'),
    notReproduced: count('not reproduced'),
    notConfirmed: count('not confirmed'),
  };
}
