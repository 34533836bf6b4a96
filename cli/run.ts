// The conformance run behind `npm start`, once the options are parsed, in phases that read top to
// bottom:
//   prepare    the report directory checked and an earlier run's reports removed (fail closed),
//              the baseline and the target read (a target file, or the embedded mock's description);
//   plan       the suite planned, nothing sent: --list prints the plan; a filter that selects
//              nothing, or a plan over --max-requests, is refused before any request;
//   preflight  the embedded mock started, sized to the plan; a token and one probe of the target's
//              rate limit (a target that cannot be tested as asked stops the run here);
//   run        the suites, in the test worker, with the run's settings as one message;
//   judge      the results joined to the clause registry, and the verdict;
//   report     the reports written, the summary printed, the exit code returned.
// Three kinds of outcome, never mixed (README, "Verdicts"): the target broke a clause (FAIL, 1);
// the target could not be tested as asked (3, or INCOMPLETE, 4, with the reason; reports
// written); the suite itself erred (ERROR, 5, with a request for a bug report). Exit 2 is for
// local input only, before anything is sent.
import { randomInt, randomUUID } from 'node:crypto';
import { join, relative, resolve } from 'node:path';
import {
  ConfigError,
  HarnessError,
  loadTargetFile,
  preflight,
  redactor,
  waitPastBound,
  type Preflight,
  type PreflightBreach,
  type RateLimitObservation,
  type ResolvedTarget,
  type RunSettings,
} from '../harness/runner.ts';
import { operationKeys } from '../specs/index.ts';
import { loadBaseline } from './baseline.ts';
import { embeddedBucketFor, embeddedTargetForPlanning, exhaustionCapFor, startEmbeddedTarget } from './embedded.ts';
import { DEFAULTS, EXIT, exitCodeOf, UsageError, type ConformanceOptions } from './options.ts';
import { projectRoot, suiteCommit, suiteVersion } from './paths.ts';
import { renderMatrix } from './matrix-listing.ts';
import { leftOutByBudget, planOf, renderBudget, renderPlan, type RunPlan } from './plan.ts';
import { planTests, suiteFiles } from './planner.ts';
import { printRunSummary } from './reporters/console.ts';
import { writeGithubOutput } from './reporters/github.ts';
import { printable } from './reporters/printable.ts';
import {
  breachOutcome,
  BUG_REPORT,
  confirmationTally,
  summarize,
  testsOf,
  type Baseline,
  type RunInfo,
  type RunResult,
  type RunStopped,
} from './reporters/results.ts';
import { prepareReportDir, RECORDING_FILE, writeReports } from './reporters/write.ts';
import { SuiteRunner, type SuiteRun } from './suite-runner.ts';
import { tokenPolicyOf, tokenReportOf, type RunTokens } from './token-use.ts';

export interface RunIo {
  /** A line for the console (stdout). */
  print: (line: string) => void;
  /** A line for the error stream (stderr): why a run stopped, for a CI log that shows only that. */
  warn: (line: string) => void;
  env: NodeJS.ProcessEnv;
}

/** A run that cannot go on: its exit code and message (printed as "error: ..."). */
export class RunStop extends Error {
  readonly code: number;
  constructor(code: number, message: string) {
    super(message);
    this.code = code;
  }
}

export async function conformanceRun(options: ConformanceOptions, io: RunIo): Promise<number> {
  const print = (line: string) => io.print(printable(redactor.redact(line)));
  const prepared = await prepare(options, io.env);
  const planned = await plan(prepared);
  if (options.list) {
    for (const line of renderPlan(planned.plan, prepared.target.source, planned.exhaustionMax)) print(line);
    if (planned.leftOut) for (const line of renderBudget(planned, prepared.tokens.cached)) print(line);
    for (const line of renderMatrix(options.matrixScope ?? (prepared.target.testDouble ? 'full' : 'core'))) print(line);
    return EXIT.pass;
  }
  if (planned.leftOut) {
    print(
      `the plan needs ${planned.plan.total} requests, over --max-requests ${planned.maxRequests}: ${Object.keys(planned.leftOut).length} tests are left out by priority (the contract first, the rate-limit exhaustion next, the observed level last)`,
    );
  }
  return withTarget(prepared, planned, async (target) => {
    print(
      `conformance run against ${target.source} (${target.baseUrl}), seed ${prepared.seed}${options.shard ? `, shard ${options.shard.index}/${options.shard.count}` : ''}; plan: ${planned.plan.total} requests`,
    );
    const checked = await preflightPhase(target, prepared);
    const ran: Ran = checked.stopped
      ? {
          tests: checked.breach ? [breachOutcome(checked.breach, prepared.options.strict, prepared.baseline)] : [],
          unhandled: [],
          stopped: checked.stopped,
        }
      : await runPhase(runSettings(prepared, planned, target, checked), planned, prepared, print);
    const result = judge(ran, prepared, planned, target, checked);
    return report(result, prepared, io, print);
  });
}

// --- prepare ---------------------------------------------------------------------------------

/** What the run is, before anything is planned or sent. */
interface Prepared {
  options: ConformanceOptions;
  started: number;
  runId: string;
  seed: number;
  /** Where the reports go: --out, or a shard's folder under it. */
  reportDir: string;
  baseline: Baseline;
  embedded: boolean;
  /** The target as the plan sees it (the embedded mock's URLs are known once it starts). */
  target: ResolvedTarget;
  /** How the run gets its tokens: the cache, --max-tokens, what the cache already answers. */
  tokens: RunTokens;
}

/** The names --operation takes: each operation of specs/, and the token endpoint. */
function checkOperationFilter(options: ConformanceOptions): void {
  const known: readonly string[] = [...operationKeys, 'token'];
  const unknown = options.operations?.filter((name) => !known.includes(name));
  if (unknown?.length) throw new UsageError(`--operation ${unknown.join(',')} is not one of ${known.join(', ')}`);
}

async function prepare(options: ConformanceOptions, env: NodeJS.ProcessEnv): Promise<Prepared> {
  checkOperationFilter(options);
  const started = Date.now();
  const outDir = resolve(options.outDir);
  const reportDir = options.shard ? join(outDir, 'shards', `${options.shard.index}-of-${options.shard.count}`) : outDir;
  if (!options.list) {
    for (const dir of new Set([outDir, reportDir])) {
      try {
        prepareReportDir(dir);
      } catch (error) {
        const err = error as NodeJS.ErrnoException;
        throw new RunStop(EXIT.cannotRun, `cannot write reports to ${dir}: ${err.code ?? err.message}`);
      }
    }
  }
  const baseline = options.baseline ? await guardConfig(() => loadBaseline(options.baseline!)) : [];
  const embedded = options.targetFile === undefined;
  const target = await guardConfig(() => (embedded ? embeddedTargetForPlanning() : loadTargetFile(options.targetFile!, { env })));
  const seed = options.seed ?? randomInt(2 ** 31 - 1);
  const tokens = tokenPolicyOf(options, target, embedded, env, started + options.runTimeoutSeconds * 1000);
  return { options, started, runId: randomUUID(), seed, reportDir, baseline, embedded, target, tokens };
}

/** A bad target file or baseline is a usage error (exit 2), named by its message. */
async function guardConfig<T>(read: () => T | Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof ConfigError) throw new RunStop(EXIT.usage, error.message);
    throw error;
  }
}

// --- plan ------------------------------------------------------------------------------------

interface Planned {
  files: string[];
  plan: RunPlan;
  /** The embedded mock's bucket: every request the plan sends, and a margin. */
  bucketSize: number;
  exhaustionMax: number;
  maxRequests: number;
  /** Tests --max-requests leaves out (by title, with why), when the plan is over it. */
  leftOut?: Record<string, string>;
}

async function plan(prepared: Prepared): Promise<Planned> {
  const { options, embedded } = prepared;
  const files = suiteFiles(options.shard);
  const exhaustionDefault = options.exhaustionMax ?? DEFAULTS.exhaustionMax;
  const maxDefault = options.maxRequests ?? DEFAULTS.maxRequests;
  const planning = { exhaustionMax: exhaustionDefault, maxRequests: maxDefault };
  const tests = await planTests(files, runSettings(prepared, planning, prepared.target));
  if (tests.length === 0) throw new UsageError(`${describeFilter(options)} selects no test`);
  // Against the embedded mock, the exhaustion may take what it may take of any bucket (two of
  // them), and this bucket holds the whole plan.
  const bucketSize = embeddedBucketFor(tests);
  const exhaustionMax = embedded && options.exhaustionMax === undefined ? exhaustionCapFor(bucketSize) : exhaustionDefault;
  const runPlan = planOf(tests, exhaustionMax, prepared.tokens.cached);
  // The budget protects someone's tenant; against the embedded mock it is only raised to what the plan needs.
  const maxRequests = embedded && options.maxRequests === undefined ? Math.max(maxDefault, runPlan.total) : maxDefault;
  // Over the budget: keep the tests that matter most (cli/plan.ts priorityOf); the rest are left out,
  // their clauses INCOMPLETE with that reason. A budget that pays for no test is refused, nothing sent.
  // --list shows the selection of a budget given on the command line (the default one protects, it does not select).
  const selects = !options.list || options.maxRequests !== undefined;
  const leftOut = selects ? leftOutByBudget(tests, maxRequests, exhaustionMax, prepared.tokens.cached) : undefined;
  if (leftOut && Object.keys(leftOut).length === runPlan.runnable.length) {
    throw new UsageError(
      `--max-requests ${maxRequests} pays for no test (the plan needs ${runPlan.total} requests, the rate-limit exhaustion counted at its cap of ${exhaustionMax}); nothing was sent. See the plan with --list`,
    );
  }
  return { files, plan: runPlan, bucketSize, exhaustionMax, maxRequests, ...(leftOut ? { leftOut } : {}) };
}

function describeFilter(options: ConformanceOptions): string {
  const parts = [
    options.grep ? `--grep "${options.grep}"` : '',
    options.grepInvert ? `--grep-invert "${options.grepInvert}"` : '',
    options.operations ? `--operation ${options.operations.join(',')}` : '',
    options.shard ? `--shard ${options.shard.index}/${options.shard.count}` : '',
  ].filter(Boolean);
  return parts.length > 0 ? parts.join(' ') : 'the run';
}

/**
 * The run's settings: the one message that crosses into the test worker (and what the plan is
 * evaluated against), made here and nowhere else.
 */
function runSettings(
  prepared: Prepared,
  limits: Pick<Planned, 'exhaustionMax' | 'maxRequests' | 'leftOut'> & { plan?: RunPlan },
  target: ResolvedTarget,
  checked?: { requests: number; probe?: RateLimitObservation },
): RunSettings {
  const { options } = prepared;
  return {
    runId: prepared.runId,
    target,
    strict: options.strict,
    seed: prepared.seed,
    numRuns: options.numRuns ?? (prepared.embedded ? DEFAULTS.embeddedNumRuns : 0),
    allowWrites: options.allowWrites,
    allowRateLimitExhaustion: options.allowRateLimitExhaustion,
    // The preflight's requests come out of the budget.
    maxRequests: Math.max(0, limits.maxRequests - (checked?.requests ?? 0)),
    requestTimeoutMs: options.requestTimeoutMs,
    rateShare: options.rateShare / (options.shard?.count ?? 1),
    exhaustionMax: limits.exhaustionMax,
    deadline: deadlineOf(prepared),
    ...(checked?.probe ? { rateLimitProbe: checked.probe } : {}),
    ...(options.matrixScope ? { matrixScope: options.matrixScope } : {}),
    filter: {
      ...(options.grep ? { grep: options.grep } : {}),
      ...(options.grepInvert ? { grepInvert: options.grepInvert } : {}),
      ...(options.operations ? { operations: options.operations } : {}),
      ...(limits.leftOut ? { leftOut: limits.leftOut } : {}),
    },
    ...(options.record && !options.list ? { recordTo: join(prepared.reportDir, RECORDING_FILE) } : {}),
    tokenPolicy: prepared.tokens.policy,
    ...(limits.plan ? { confirmation: { reserve: limits.plan.confirmationReserve } } : {}),
  };
}

// --- preflight -------------------------------------------------------------------------------

/** Runs `work` against the target: the embedded mock started first where it is the target, and stopped after. */
async function withTarget(prepared: Prepared, planned: Planned, work: (target: ResolvedTarget) => Promise<number>): Promise<number> {
  let close = async () => {};
  const stop = () => void close().finally(() => process.exit(130));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  try {
    let target = prepared.target;
    if (prepared.embedded) {
      const mock = await startEmbeddedTarget({ bucketSize: planned.bucketSize });
      close = mock.close;
      target = mock.target;
    }
    return await work(target);
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
    await close();
  }
}

interface Checked {
  requests: number;
  probe?: RateLimitObservation;
  /** The preflight's account, where it ran (the tokens it minted or reused). */
  preflight?: Preflight;
  /** Why the run cannot go ahead, if it cannot. */
  stopped?: RunStopped;
  /** A clause of the contract the preflight's answer broke, where it stopped the run for it. */
  breach?: PreflightBreach;
}

/** The preflight: a target that cannot be tested as asked stops the run here, with its reason. */
async function preflightPhase(target: ResolvedTarget, prepared: Prepared): Promise<Checked> {
  try {
    const { policy } = prepared.tokens;
    const checked = await preflight(target, {
      requestTimeoutMs: prepared.options.requestTimeoutMs,
      tokenPolicy: policy,
      deadline: deadlineOf(prepared),
    });
    // What the preflight minted counts against --max-tokens in the test worker.
    policy.mintedBefore = checked.tokens.minted;
    const wait = waitPastBound(checked.probe, deadlineOf(prepared));
    return {
      requests: checked.requests,
      ...(checked.probe ? { probe: checked.probe } : {}),
      preflight: checked,
      ...(wait ? { stopped: { cause: 'rate-limit', reason: wait } } : {}),
    };
  } catch (error) {
    if (!(error instanceof HarnessError)) throw error;
    const { requests = 0, breach } = error as { requests?: number; breach?: PreflightBreach };
    return {
      requests,
      stopped: { cause: 'target', reason: `cannot run against ${target.baseUrl}: ${error.message}` },
      ...(breach ? { breach } : {}),
    };
  }
}

// --- run -------------------------------------------------------------------------------------

/** What the suites came to: the tests' outcomes, errors outside them, and why the run stopped early, if it did. */
interface Ran {
  tests: ReturnType<typeof testsOf>['tests'];
  unhandled: string[];
  stopped?: RunStopped;
}

async function runPhase(settings: RunSettings, planned: Planned, prepared: Prepared, print: (line: string) => void): Promise<Ran> {
  // vitest starts only for a run that goes ahead (not for a target that cannot be reached), and
  // loads only the files that hold a test of the plan: a file whose tests a filter left out
  // would only be imported to skip them all (most of the start of a --grep run).
  const planFiles = new Set(planned.plan.tests.map((t) => t.file));
  const runner = await SuiteRunner.create({
    files: planned.files.filter((file) => planFiles.has(relative(projectRoot, file))),
    testTimeoutMs: prepared.options.runTimeoutSeconds * 1000 + 10_000,
    onFileDone: (module) => print(progressLine(module)),
  });
  let run: SuiteRun;
  try {
    run = await runner.run(settings);
  } finally {
    await runner.close();
  }
  const { tests, unhandled } = testsOf(run.modules, prepared.options.strict, projectRoot, prepared.baseline);
  const errors = [...run.unhandled, ...unhandled].map((e) => redactor.redact(e));
  const died = run.workerDied;
  if (!died) return { tests, unhandled: errors };
  // The tests of the file the worker died in that never ran: skipped, for the reason it died.
  const neverRan = (t: Ran['tests'][number]) => t.state === 'skipped' && t.skip === undefined;
  return {
    tests: tests.map((t) => (neverRan(t) ? { ...t, skip: { category: 'stopped', reason: died.reason } } : t)),
    unhandled: errors,
    stopped: { cause: died.outOfMemory ? 'target' : 'suite', reason: died.reason },
  };
}

/** "✓ suites/x.test.ts  3 passed, 1 skipped": one line per test file as it finishes. */
function progressLine(module: Parameters<NonNullable<Parameters<typeof SuiteRunner.create>[0]['onFileDone']>>[0]): string {
  const tests = [...module.children.allTests()].filter(
    (t) => !(t.result().state === 'skipped' && t.meta().plan?.skip?.category === 'not-selected'),
  );
  const count = (state: string) => tests.filter((t) => t.result().state === state).length;
  const failed = count('failed');
  const name = module.moduleId.slice(module.moduleId.indexOf('suites/'));
  if (tests.length === 0) return `· ${name}  no test selected`;
  return `${failed > 0 ? '✗' : '✓'} ${name}  ${count('passed')} passed${failed ? `, ${failed} failed` : ''}${count('skipped') ? `, ${count('skipped')} skipped` : ''}`;
}

// --- judge -----------------------------------------------------------------------------------

function judge(ran: Ran, prepared: Prepared, planned: Planned, target: ResolvedTarget, checked: Checked): RunResult {
  const { options } = prepared;
  const sum = (read: (t: Ran['tests'][number]) => number) => ran.tests.reduce((total, t) => total + read(t), 0);
  // The pacer's account of the target's rate limit, as the last test that ran left it.
  const pacing = ran.tests.findLast((t) => t.pacing)?.pacing;
  const info: RunInfo = {
    target: target.source,
    baseUrl: target.baseUrl,
    seed: prepared.seed,
    strict: options.strict,
    flags: flagsOf(options),
    version: suiteVersion(),
    commit: suiteCommit(),
    startedAt: new Date(prepared.started).toISOString(),
    wallMs: Date.now() - prepared.started,
    ...(options.shard ? { shard: options.shard } : {}),
    filtered: options.grep !== undefined || options.grepInvert !== undefined || options.operations !== undefined,
    preflightRequests: checked.requests,
    shared: Object.assign({}, ...ran.tests.map((t) => t.paid)) as Record<string, number>,
    plannedRequests: planned.plan.total,
    exhaustionMax: planned.exhaustionMax,
    waitedMs: sum((t) => t.waitedMs),
    unplanned429s: sum((t) => t.unplanned429s),
    ...(ran.stopped ? { stopped: ran.stopped } : {}),
    tokens: tokenReportOf(prepared.tokens, checked.preflight, ran.tests),
    confirmations: confirmationTally(ran.tests, planned.plan.confirmationReserve),
    ...(pacing ? { pacing } : {}),
  };
  return summarize(ran.tests, ran.unhandled, info);
}

/** The options that change what a run verifies, for the reports. */
function flagsOf(options: ConformanceOptions): string[] {
  return [
    options.strict ? '--strict' : '',
    options.allowWrites ? '--allow-writes' : '',
    options.allowRateLimitExhaustion ? '--allow-rate-limit-exhaustion' : '',
    options.numRuns !== undefined ? `--num-runs ${options.numRuns}` : '',
    options.grep ? `--grep ${options.grep}` : '',
    options.grepInvert ? `--grep-invert ${options.grepInvert}` : '',
    options.operations ? `--operation ${options.operations.join(',')}` : '',
    options.rateShare !== DEFAULTS.rateShare ? `--rate-share ${options.rateShare}` : '',
    options.baseline ? `--baseline ${options.baseline}` : '',
    options.matrixScope ? `--matrix ${options.matrixScope}` : '',
    options.record ? '--record' : '',
    options.tokenCache ? '' : '--no-token-cache',
    options.maxTokens !== undefined ? `--max-tokens ${options.maxTokens}` : '',
  ].filter(Boolean);
}

// --- report ----------------------------------------------------------------------------------

function report(result: RunResult, prepared: Prepared, io: RunIo, print: (line: string) => void): number {
  let paths: string[];
  try {
    paths = writeReports(result, prepared.reportDir);
  } catch (error) {
    const err = error as NodeJS.ErrnoException;
    throw new RunStop(EXIT.cannotRun, `cannot write reports to ${prepared.reportDir}: ${err.code ?? err.message}`);
  }
  printRunSummary(result, paths, print);
  writeGithubOutput(result, io.env, print);
  print(`wall time of the whole run: ${((Date.now() - prepared.started) / 1000).toFixed(1)} s`);
  const code = exitCodeOf(result);
  // A CI log often shows the error stream alone: why the run stopped, or erred, is said there too.
  const warn = (line: string) => io.warn(`error: ${printable(redactor.redact(line))}`);
  if (result.info.stopped && code !== EXIT.incomplete) warn(result.info.stopped.reason);
  if (code === EXIT.suiteError) warn(BUG_REPORT);
  return code;
}

/** When the run must be over: its start and --run-timeout. */
function deadlineOf(prepared: Prepared): number {
  return prepared.started + prepared.options.runTimeoutSeconds * 1000;
}
