// `npm run merge-reports`: merges the blob reports of sharded runs (npm start -- --shard I/N) into
// one reports/junit.xml and reports/summary.md, and exits like a whole run would.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { startVitest } from 'vitest/node';
import { redactor } from '../harness/redact.ts';
import { ConformanceReporter } from './reporters/conformance-reporter.ts';
import type { RunInfo } from './reporters/results.ts';
import { projectRoot } from './run-suite.ts';

const print = (line: string) => process.stdout.write(`${redactor.redact(line)}\n`);
const fail = (code: number, message: string): never => {
  process.stderr.write(`error: ${message}\n`);
  process.exit(code);
};

async function main(): Promise<number> {
  let outDir: string;
  try {
    const { values } = parseArgs({ args: process.argv.slice(2), options: { out: { type: 'string', default: 'reports' } }, strict: true });
    outDir = resolve(values.out!);
  } catch (error) {
    return fail(2, `${(error as Error).message} (usage: npm run merge-reports -- [--out DIR])`);
  }
  const blobDir = join(outDir, 'blob');
  if (!existsSync(blobDir) || readdirSync(blobDir).filter((f) => f.startsWith('blob-')).length === 0) {
    return fail(2, `no shard reports in ${blobDir}; run npm start -- --shard I/N first`);
  }
  const shardsDir = join(outDir, 'shards');
  const runFiles = existsSync(shardsDir) ? readdirSync(shardsDir).filter((f) => f.startsWith('run-')) : [];
  const runs = runFiles.map((f) => JSON.parse(readFileSync(join(shardsDir, f), 'utf8')) as RunInfo & { startedAt: string });
  const seeds = new Set(runs.map((r) => r.seed));
  if (seeds.size > 1) print(`warning: the shards ran with different seeds (${[...seeds].join(', ')})`);
  const first = runs[0];
  const info = (): RunInfo => ({
    target: first?.target ?? 'unknown',
    baseUrl: first?.baseUrl ?? 'unknown',
    seed: first?.seed ?? 0,
    strict: runs.some((r) => r.strict),
    startedAt: new Date(Math.min(...runs.map((r) => Date.parse(r.startedAt)))),
    wallMs: Math.max(0, ...runs.map((r) => r.wallMs)),
    extraRequests: runs.reduce((sum, r) => sum + r.extraRequests, 0),
    shard: `merged from ${runs.length} shard(s)`,
  });
  const reporter = new ConformanceReporter({ outDir, info, print });
  const vitest = await startVitest('test', [], { root: projectRoot, config: join(projectRoot, 'suites', 'vitest.config.ts'), mergeReports: blobDir, watch: false }, { test: { reporters: [reporter] } });
  await vitest.close();
  if (!reporter.result) return fail(3, 'the merge produced no result');
  return reporter.result.passed ? 0 : 1;
}

main().then((code) => process.exit(code), (error: unknown) => fail(3, error instanceof Error ? error.message : String(error)));
