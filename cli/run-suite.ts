// Runs the conformance suites once, in this process, against a resolved target, and returns the
// result the reporters computed. `npm start` and the mutation gate both go through here.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startVitest } from 'vitest/node';
import type { RunSettings } from '../harness/settings.ts';
import { ConformanceReporter } from './reporters/conformance-reporter.ts';
import type { RunInfo, RunResult } from './reporters/results.ts';

export const projectRoot = fileURLToPath(new URL('..', import.meta.url));

/** The run settings the suites get, less what this function derives (deadline, longest wait). */
export interface SuiteRun extends Omit<RunSettings, 'deadline' | 'maxRateLimitWaitMs'> {
  runTimeoutSeconds: number;
  outDir: string;
  shard?: { index: number; count: number };
  grep?: string;
  /** Requests sent before the suite (preflight), counted in the reports. */
  extraRequests: number;
  print: (line: string) => void;
}

export interface SuiteOutcome {
  result: RunResult | undefined;
  info: RunInfo;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export async function runSuite(run: SuiteRun): Promise<SuiteOutcome> {
  const startedAt = new Date();
  const settings: RunSettings = {
    target: run.target,
    strict: run.strict,
    seed: run.seed,
    numRuns: run.numRuns,
    allowWrites: run.allowWrites,
    allowRateLimitExhaustion: run.allowRateLimitExhaustion,
    maxRequests: Math.max(0, run.maxRequests - run.extraRequests),
    requestTimeoutMs: run.requestTimeoutMs,
    maxRateLimitWaitMs: run.target.loopback ? 5_000 : 60_000,
    deadline: startedAt.getTime() + run.runTimeoutSeconds * 1000,
  };
  const shardLabel = run.shard ? `${run.shard.index}/${run.shard.count}` : undefined;
  const info = (): RunInfo => ({
    target: run.target.source,
    baseUrl: run.target.baseUrl,
    seed: run.seed,
    strict: run.strict,
    startedAt,
    wallMs: Date.now() - startedAt.getTime(),
    extraRequests: run.extraRequests,
    ...(shardLabel ? { shard: shardLabel } : {}),
  });
  const outDir = resolve(run.outDir);
  const reporter = new ConformanceReporter({ outDir: run.shard ? join(outDir, 'shards', `${run.shard.index}-of-${run.shard.count}`) : outDir, info, print: run.print });
  const blob: Array<['blob', { outputFile: string }]> = run.shard
    ? [['blob', { outputFile: join(outDir, 'blob', `blob-${run.shard.index}-${run.shard.count}.json`) }]]
    : [];
  const vitest = await startVitest(
    'test',
    [],
    {
      root: projectRoot,
      config: join(projectRoot, 'suites', 'vitest.config.ts'),
      watch: false,
      passWithNoTests: false,
      ...(shardLabel ? { shard: shardLabel } : {}),
      ...(run.grep ? { testNamePattern: new RegExp(escapeRegExp(run.grep)) } : {}),
    },
    { test: { provide: { settings }, reporters: [...blob, reporter] } },
  );
  await vitest.close();
  const finalInfo = info();
  if (run.shard) {
    // What the merge needs besides the blob: the run facts of this shard.
    mkdirSync(join(outDir, 'shards'), { recursive: true });
    writeFileSync(join(outDir, 'shards', `run-${run.shard.index}-of-${run.shard.count}.json`), JSON.stringify(finalInfo));
  }
  return { result: reporter.result, info: finalInfo };
}
