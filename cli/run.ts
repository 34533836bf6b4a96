// The conformance run behind `npm start`, once the options are parsed:
//   1. the report directory is checked and an earlier run's reports removed (fail closed);
//   2. the target is resolved (a target file, or the embedded mock's description);
//   3. the suite is planned (collected, nothing sent): --list prints the plan and stops; a filter
//      that selects nothing, or a plan over --max-requests, is refused before any request;
//   4. the embedded mock starts, sized to the plan; the preflight gets a token and reads the
//      target's rate-limit state (a target that would keep the suite waiting past its bound is
//      reported up front);
//   5. the suites run, and the reports are written from their results with the verdict:
//      PASS (0) every gating clause verified, FAIL (1) a gating test failed, INCOMPLETE (4) some
//      gating clause not verified, each listed with its reason.
import { randomInt, randomUUID } from 'node:crypto';
import { join, resolve } from 'node:path';
import { loadTargetFile } from '../harness/config.ts';
import { ConfigError, HarnessError } from '../harness/errors.ts';
import { redactor } from '../harness/redact.ts';
import type { ResolvedTarget, RunSettings } from '../harness/settings.ts';
import { loadBaseline } from './baseline.ts';
import { embeddedBucketFor, embeddedTargetForPlanning, exhaustionCapFor, startEmbeddedTarget } from './embedded.ts';
import { DEFAULTS, EXIT, UsageError, VERDICT_EXIT, type ConformanceOptions } from './options.ts';
import { projectRoot, suiteCommit, suiteVersion } from './paths.ts';
import { planOf, renderPlan } from './plan.ts';
import { planTests, suiteFiles } from './planner.ts';
import { preflight, waitPastBound, type Preflight } from './preflight.ts';
import { printRunSummary } from './reporters/console.ts';
import { writeGithubOutput } from './reporters/github.ts';
import {
  confirmationTally,
  summarize,
  testsOf,
  type Baseline,
  type RunInfo,
  type RunResult,
  type TestOutcome,
} from './reporters/results.ts';
import { prepareReportDir, writeReports } from './reporters/write.ts';
import { SuiteRunner } from './suite-runner.ts';
import { tokenPolicyOf, tokenReportOf } from './token-use.ts';

export interface RunIo {
  print: (line: string) => void;
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
  const started = Date.now();
  const print = (line: string) => io.print(redactor.redact(line));
  const outDir = resolve(options.outDir);
  const reportDir = options.shard ? join(outDir, 'shards', `${options.shard.index}-of-${options.shard.count}`) : outDir;
  if (!options.list) {
    try {
      prepareReportDir(outDir);
      if (reportDir !== outDir) prepareReportDir(reportDir);
    } catch (error) {
      const err = error as NodeJS.ErrnoException;
      throw new RunStop(EXIT.cannotRun, `cannot write reports to ${err.path ?? outDir}: ${err.code ?? err.message}`);
    }
  }
  const baseline: Baseline = options.baseline ? await guardConfig(() => loadBaseline(options.baseline!)) : [];
  const embedded = options.targetFile === undefined;
  let target: ResolvedTarget = await guardConfig(() => (embedded ? embeddedTargetForPlanning() : loadTargetFile(options.targetFile!)));

  const seed = options.seed ?? randomInt(2 ** 31 - 1);
  const runTimeoutMs = options.runTimeoutSeconds * 1000;
  const settings: RunSettings = {
    runId: randomUUID(),
    target,
    strict: options.strict,
    seed,
    numRuns: options.numRuns ?? (embedded ? DEFAULTS.embeddedNumRuns : 0),
    allowWrites: options.allowWrites,
    allowRateLimitExhaustion: options.allowRateLimitExhaustion,
    maxRequests: options.maxRequests ?? DEFAULTS.maxRequests,
    requestTimeoutMs: options.requestTimeoutMs,
    rateShare: options.rateShare / (options.shard?.count ?? 1),
    exhaustionMax: options.exhaustionMax ?? DEFAULTS.exhaustionMax,
    deadline: started + runTimeoutMs,
    filter: {
      ...(options.grep ? { grep: options.grep } : {}),
      ...(options.grepInvert ? { grepInvert: options.grepInvert } : {}),
      ...(options.operations ? { operations: options.operations } : {}),
    },
  };

  const tokens = tokenPolicyOf(options, target, embedded, io.env, settings.deadline);
  settings.tokenPolicy = tokens.policy;

  const files = suiteFiles(options.shard);
  const tests = await planTests(files, settings);
  if (tests.length === 0) throw new UsageError(`${describeFilter(options)} selects no test`);
  // Against the embedded mock, the exhaustion may take what it may take of any bucket (two of
  // them), and this bucket holds the whole plan.
  const bucketSize = embeddedBucketFor(tests);
  if (embedded) settings.exhaustionMax = options.exhaustionMax ?? exhaustionCapFor(bucketSize);
  const plan = planOf(tests, settings.exhaustionMax, tokens.cached);
  settings.confirmation = { reserve: plan.confirmationReserve };
  if (options.list) {
    for (const line of renderPlan(plan, target.source, settings.exhaustionMax)) print(line);
    return EXIT.pass;
  }
  // The budget protects someone's tenant; against the embedded mock it is only raised to what the plan needs.
  if (embedded && options.maxRequests === undefined) settings.maxRequests = Math.max(settings.maxRequests, plan.total);
  if (plan.total > settings.maxRequests) {
    throw new UsageError(
      `the plan needs ${plan.total} requests (the rate-limit exhaustion counted at its cap of ${settings.exhaustionMax}), over --max-requests ${settings.maxRequests}; nothing was sent. See the plan with --list; narrow it with --grep or --operation, or raise --max-requests`,
    );
  }

  let close = async () => {};
  let runner: SuiteRunner | undefined;
  const stop = () => void close().finally(() => process.exit(130));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  try {
    if (embedded) {
      const mock = await startEmbeddedTarget({ bucketSize });
      close = mock.close;
      target = mock.target;
      settings.target = target;
    }
    print(
      `conformance run against ${target.source} (${target.baseUrl}), seed ${seed}${options.shard ? `, shard ${options.shard.index}/${options.shard.count}` : ''}; plan: ${plan.total} requests`,
    );

    let preflightRequests = 0;
    let stoppedEarly: string | undefined;
    let checked: Preflight | undefined;
    try {
      checked = await preflight(target, {
        requestTimeoutMs: options.requestTimeoutMs,
        tokenPolicy: tokens.policy,
        deadline: settings.deadline,
      });
      preflightRequests = checked.requests;
      tokens.policy.mintedBefore = checked.tokens.minted;
      if (checked.probe) settings.rateLimitProbe = checked.probe;
      stoppedEarly = waitPastBound(checked.probe, settings.deadline);
    } catch (error) {
      if (error instanceof HarnessError) {
        throw new RunStop(
          error.code === 'TOKEN_UNAVAILABLE' ? EXIT.usage : EXIT.cannotRun,
          `cannot run against ${target.baseUrl}: ${error.message}`,
        );
      }
      throw error;
    }
    settings.maxRequests = Math.max(0, settings.maxRequests - preflightRequests);

    const info = (shared: Record<string, number>, waitedMs: number, unplanned429s: number, ran: readonly TestOutcome[] = []): RunInfo => ({
      target: target.source,
      baseUrl: target.baseUrl,
      seed,
      strict: options.strict,
      flags: flagsOf(options),
      version: suiteVersion(),
      commit: suiteCommit(),
      startedAt: new Date(started).toISOString(),
      wallMs: Date.now() - started,
      ...(options.shard ? { shard: options.shard } : {}),
      filtered: Object.keys(settings.filter).length > 0,
      preflightRequests,
      shared,
      plannedRequests: plan.total,
      exhaustionMax: settings.exhaustionMax,
      waitedMs,
      unplanned429s,
      ...(stoppedEarly ? { stoppedEarly } : {}),
      tokens: tokenReportOf(tokens, checked, ran),
      confirmations: confirmationTally(ran, plan.confirmationReserve),
      ...(ran.findLast((t) => t.pacing)?.pacing ? { pacing: ran.findLast((t) => t.pacing)!.pacing! } : {}),
    });

    let result: RunResult;
    if (stoppedEarly) {
      result = summarize([], [], info({}, 0, 0));
    } else {
      // vitest starts only for a run that goes ahead (not for a target that cannot be reached).
      runner = await SuiteRunner.create({
        files,
        testTimeoutMs: runTimeoutMs + 10_000,
        onFileDone: (module) => {
          const tests = [...module.children.allTests()].filter(
            (t) => !(t.result().state === 'skipped' && t.meta().plan?.skip?.category === 'not-selected'),
          );
          if (tests.length === 0) return;
          const count = (state: string) => tests.filter((t) => t.result().state === state).length;
          const failed = count('failed');
          print(
            `${failed > 0 ? '✗' : '✓'} ${module.moduleId.slice(module.moduleId.indexOf('suites/'))}  ${count('passed')} passed${failed ? `, ${failed} failed` : ''}${count('skipped') ? `, ${count('skipped')} skipped` : ''}`,
          );
        },
      });
      const { modules, unhandled } = await runner.run(settings);
      const { tests, unhandled: moduleErrors } = testsOf(modules, options.strict, projectRoot, baseline);
      const shared = Object.assign({}, ...tests.map((t) => t.paid)) as Record<string, number>;
      const sum = (read: (t: (typeof tests)[number]) => number) => tests.reduce((total, t) => total + read(t), 0);
      result = summarize(
        tests,
        [...unhandled, ...moduleErrors],
        info(
          shared,
          sum((t) => t.waitedMs),
          sum((t) => t.unplanned429s),
          tests,
        ),
      );
    }
    const paths = writeReports(result, reportDir);
    printRunSummary(result, paths, print);
    writeGithubOutput(result, io.env, io.print);
    print(`wall time of the whole run: ${((Date.now() - started) / 1000).toFixed(1)} s`);
    return VERDICT_EXIT[result.verdict];
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
    await close();
    await runner?.close();
  }
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
    options.tokenCache ? '' : '--no-token-cache',
    options.maxTokens !== undefined ? `--max-tokens ${options.maxTokens}` : '',
  ].filter(Boolean);
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
