// `conformance`: how a suite declares a test. A test has a title citing its clause, a plan (what
// it needs, how many requests it sends, which shared requests it reads) and a body:
//
//   conformance('[§7 redeliver.errors.404.stream] redelivery answers 404 for an unknown stream',
//     { needs: [fixture('eventStream'), fixture('failedEvent')], requests: cases(1) },
//     async ({ target }) => { ... });
//
// The plan is evaluated against the run's settings and travels in the test's meta: `--list`
// prints it without sending anything (the planner imports the suites in planning mode, where this
// function only records the plan), the runner checks its total against the budget, and a test
// whose needs are not met is skipped with the reason before its body runs. While the body runs,
// `target` (a TargetSession) holds it to the plan. When the run can no longer serve the test
// (budget, time, the target's rate limit), the test is skipped with that reason, never failed: it
// says nothing of the target.
//
// Matrix mode (the mutation gate): the settings carry several targets, each with the clauses it
// is for, and the body runs once against each target whose clauses it cites, in one vitest run;
// each outcome goes into the test's meta.
import { expect, inject, test, type TestContext } from 'vitest';
import { parseClauseTag } from '../specs/index.ts';
import { isTargetError } from './errors.ts';
import { failedClauseChecks } from './expect.ts';
import { evaluatePlan, PLANNING, skipNote, type EvaluatedPlan, type PlanContext, type PlanRegistry, type TestPlan } from './plan.ts';
import { confirmFailure, type Confirmation, type FailedTest } from './confirm.ts';
import type { PacingReport } from './pacer.ts';
import { readRateLimitHeaders } from './rate-limit-headers.ts';
import { runtimeFor } from './runtime.ts';
import { TargetSession } from './session.ts';
import { skipIn } from './skip.ts';
import { NOT_RUN_AFTER_FAILURE, type RunSettings } from './settings.ts';
import type { TokenUse } from './tokens.ts';

/** One answer's rate-limit headers, for the report's plot. */
export interface RateLimitPoint {
  at: number;
  status: number;
  limit?: number;
  remaining?: number;
  /** X-RateLimit-Reset, in Unix seconds. */
  reset?: number;
}

/**
 * What one run of a test's body came to. 'failed': the target broke the clause (a clause check
 * failed, or the target hung, reset or answered garbage); 'error': the suite itself erred (its
 * plan broken, a bug in a test or the harness), which says nothing of the target.
 */
export interface BodyOutcome {
  state: 'passed' | 'failed' | 'error' | 'skipped';
  /** The skip note ("[category] reason"), or the failure's message. */
  detail?: string;
}

declare module '@vitest/runner' {
  interface TaskMeta {
    plan?: EvaluatedPlan;
    /** Own requests sent, 429 retries outside the plan, and requests per operation label. */
    requests?: number;
    retries?: number;
    operations?: Record<string, number>;
    /** Shared requests this test was the first to need, with what they cost. */
    paid?: Record<string, number>;
    /** Time this test waited for the target's rate limit, and 429s it met outside the exhaustion. */
    waitedMs?: number;
    unplanned429s?: number;
    /** The test's error is the suite's own (a bug to report), not a failed clause. */
    suiteError?: boolean;
    /** Matrix mode: the outcome against each target, by its id. */
    matrix?: Record<string, BodyOutcome>;
    /** The rate-limit headers of each answer of the management interface the test saw, in order. */
    rateLimit?: RateLimitPoint[];
    /** What the pacer knows of the target's rate limit once the test is done (harness/pacer.ts). */
    pacing?: PacingReport;
    /** A gating failure sent once more before the verdict, and what came of it (harness/confirm.ts). */
    confirmation?: Confirmation;
    /** Tokens this test minted and reused, quota headers seen meanwhile, the token cache's problems. */
    tokens?: TokenUse & { problems: string[] };
  }
}

export interface ConformanceContext extends TestContext {
  target: TargetSession;
}

type Body = (context: ConformanceContext) => Promise<void>;

export function conformance(title: string, plan: TestPlan, body: Body): void {
  const planning = (globalThis as Record<symbol, PlanRegistry | undefined>)[PLANNING];
  if (planning) {
    planning.add(title, plan);
    return;
  }
  const settings = inject('settings');
  if (settings.matrix) {
    matrixTest(title, plan, body, settings);
    return;
  }
  const evaluated = evaluatePlan(title, plan, settings);
  test(title, { meta: { plan: evaluated } }, async (context) => {
    if (evaluated.skip) context.skip(skipNote(evaluated.skip.category, evaluated.skip.reason));
    const outcome = await runBody(title, evaluated, body, settings, context, true);
    if (outcome.state === 'skipped') context.skip(outcome.detail);
    if (outcome.state === 'error') context.task.meta.suiteError = true;
    // Rethrown as the body threw it (an assertion error, a target error), so vitest reports it as such.
    // eslint-disable-next-line @typescript-eslint/only-throw-error
    if (outcome.error !== undefined) throw outcome.error;
  });
}

/** The matrix entries (by their run id) a test has already failed against, in this worker. */
const failedEntries = new Set<string>();

function matrixTest(title: string, plan: TestPlan, body: Body, settings: RunSettings): void {
  const clause = parseClauseTag(title)?.id;
  const entries = settings.matrix!.filter(
    (entry) =>
      (entry.clauses === 'all' || (clause !== undefined && entry.clauses.includes(clause))) &&
      (entry.tests === undefined || entry.tests.includes(title)),
  );
  test(title, { skip: entries.length === 0 }, async (context) => {
    const outcomes: Record<string, BodyOutcome> = {};
    for (const entry of entries) {
      if (entry.stopAtFirstFailure && failedEntries.has(entry.settings.runId)) {
        outcomes[entry.id] = { state: 'skipped', detail: NOT_RUN_AFTER_FAILURE };
        continue;
      }
      const evaluated = evaluatePlan(title, plan, entry.settings);
      if (evaluated.skip) {
        outcomes[entry.id] = { state: 'skipped', detail: skipNote(evaluated.skip.category, evaluated.skip.reason) };
        continue;
      }
      const outcome = await runBody(title, evaluated, body, entry.settings, context, false);
      const { error, ...rest } = outcome;
      if (outcome.state === 'failed') failedEntries.add(entry.settings.runId);
      outcomes[entry.id] = error !== undefined ? { ...rest, detail: String((error as Error).message ?? error) } : rest;
    }
    context.task.meta.matrix = outcomes;
    // Its verdicts are the outcomes in its meta, which the mutation gate reads; vitest's pass or
    // fail of this wrapper means nothing. The one assertion is for expect.requireAssertions (the
    // bodies' own may all be skips).
    expect(Object.keys(outcomes)).toHaveLength(entries.length);
  });
}

/** Runs a test's body against the settings' target; an error is returned, not thrown. */
async function runBody(
  title: string,
  evaluated: EvaluatedPlan,
  body: Body,
  settings: RunSettings,
  context: TestContext,
  recordMeta: boolean,
): Promise<BodyOutcome & { error?: unknown }> {
  const runtime = runtimeFor(settings);
  const session = new TargetSession(runtime, title, evaluated);
  runtime.current = session;
  const keysBefore = runtime.shared.size;
  const waitedBefore = runtime.pacer.waitedMs;
  const unplannedBefore = runtime.pacer.unplanned429s;
  const answersBefore = runtime.answers.length;
  const failedBefore = failedClauseChecks();
  const tokensBefore = { ...runtime.tokens.use, at: Date.now() };
  const answered: Array<FailedTest['answers'][number]> = [];
  runtime.observer = (exchange, sharedKey) => answered.push({ method: exchange.request.method, status: exchange.status, sharedKey });
  const withTarget = (target: TargetSession): ConformanceContext => Object.assign(Object.create(context) as TestContext, { target });
  try {
    await body(withTarget(session));
    return { state: 'passed' };
  } catch (error) {
    const skip = skipIn(error);
    if (skip) return { state: 'skipped', detail: skipNote(skip.category, skip.message) };
    if (session.stopped) return { state: 'skipped', detail: skipNote(session.stopped.category, session.stopped.reason) };
    runtime.observer = undefined;
    // Neither a failed clause check nor the target misbehaving: the suite erred (never confirmed).
    if (!(failedClauseChecks() > failedBefore || isTargetError(error))) return { state: 'error', error };
    if (!recordMeta) return { state: 'failed', error };
    // Before the verdict: a gating failure whose requests are safe to send again is sent again.
    const confirmation = await confirmFailure({
      title,
      plan: evaluated,
      runtime,
      error,
      answers: answered,
      controlled: session.controlled,
      rerun: (again) => body(withTarget(again)),
    });
    if (confirmation) context.task.meta.confirmation = confirmation;
    if (confirmation?.outcome !== 'not reproduced') return { state: 'failed', error };
    return {
      state: 'skipped',
      detail: skipNote(
        'not-reproduced',
        `it failed once and passed when its requests were sent once more (${confirmation.requests}); both answers are in the report`,
      ),
    };
  } finally {
    runtime.observer = undefined;
    runtime.current = undefined;
    if (recordMeta) {
      context.task.meta.requests = session.requests;
      context.task.meta.retries = session.retries;
      context.task.meta.operations = { ...session.byOperation };
      context.task.meta.waitedMs = runtime.pacer.waitedMs - waitedBefore;
      context.task.meta.unplanned429s = runtime.pacer.unplanned429s - unplannedBefore;
      context.task.meta.rateLimit = runtime.answers.slice(answersBefore).map(rateLimitPoint);
      context.task.meta.pacing = runtime.pacer.report();
      const { minted, reused, quotas } = runtime.tokens.use;
      context.task.meta.tokens = {
        minted: minted - tokensBefore.minted,
        reused: reused - tokensBefore.reused,
        quotas: Object.fromEntries(Object.entries(quotas).filter(([, seen]) => seen.at >= tokensBefore.at)),
        problems: [...runtime.tokens.cacheProblems],
      };
      context.task.meta.paid = Object.fromEntries(
        runtime.shared
          .summary(keysBefore)
          .filter((s) => s.paidBy === title)
          .map((s) => [s.key, s.requests]),
      );
    }
  }
}

function rateLimitPoint(exchange: { at: number; status: number; headers: Record<string, string> }): RateLimitPoint {
  return { at: exchange.at, status: exchange.status, ...readRateLimitHeaders(exchange.headers) };
}

/** A plan's request count for a test that runs `examples` deterministic cases plus the run's generated ones. */
export function cases(examples: number, requestsPerCase = 1): (context: PlanContext) => number {
  return (context) => (examples + context.numRuns) * requestsPerCase;
}
