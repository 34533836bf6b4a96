// `npm run merge-reports`: merges the results of a sharded run (npm start -- --shard I/N, each
// writing <out>/shards/I-of-N/results.json) into one junit.xml, junit-observed.xml, summary.md
// and results.json, with the verdict of the whole run, and exits like a whole run would. It
// knows how many shards the run had (from the shards' own results, or --shards N) and fails,
// naming them, when any is missing or comes from another run: a missing shard never reads as
// a pass.
import { exitWhenFlushed } from './exit.ts';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { EXIT, exitCodeOf } from './options.ts';
import type { RunResult } from './reporters/results.ts';

const USAGE = `Usage: npm run merge-reports -- [--out DIR] [--shards N]

Merges the reports of a sharded run (npm start -- --shard I/N --seed S, each shard writing
DIR/shards/I-of-N/results.json) into DIR/junit.xml, junit-observed.xml, summary.md and
results.json, with the verdict of the whole run.

  --out DIR     where the shards wrote their reports (default reports)
  --shards N    how many shards the run had (default: what the shards' reports say)
  -h, --help    show this help

Exit status as npm start: 0 PASS, 1 FAIL, 4 INCOMPLETE, 5 the suite erred; 2 bad option;
3 a shard is missing, the shards come from different runs, or a shard's target could not be
tested as asked.`;

/** Says what went wrong; the caller returns the exit code. */
const fail = (code: number, message: string): number => {
  process.stderr.write(`error: ${message}\n`);
  return code;
};

async function main(): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args: process.argv.slice(2),
      strict: true,
      options: { out: { type: 'string', default: 'reports' }, shards: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    }));
  } catch (error) {
    return fail(EXIT.usage, `${(error as Error).message.split('\n')[0]} (see --help)`);
  }
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (values.shards !== undefined && !/^[1-9]\d*$/.test(values.shards))
    return fail(EXIT.usage, `--shards needs a positive integer, got "${values.shards}"`);
  const outDir = resolve(values.out);
  const shardsDir = join(outDir, 'shards');
  const found = existsSync(shardsDir)
    ? readdirSync(shardsDir).flatMap((name) => {
        const match = /^(\d+)-of-(\d+)$/.exec(name);
        return match && existsSync(join(shardsDir, name, 'results.json'))
          ? [{ index: Number(match[1]), count: Number(match[2]), dir: join(shardsDir, name) }]
          : [];
      })
    : [];
  const counts = [...new Set(found.map((f) => f.count))];
  const count = values.shards !== undefined ? Number(values.shards) : counts.length === 1 ? counts[0]! : undefined;
  if (count === undefined) {
    return fail(
      EXIT.cannotRun,
      found.length === 0
        ? `no shard reports in ${shardsDir}; run npm start -- --shard I/N first`
        : `the shard reports in ${shardsDir} are of runs with ${counts.join(' and ')} shards; say which with --shards N`,
    );
  }
  const missing = Array.from({ length: count }, (_, i) => i + 1).filter(
    (index) => !found.some((f) => f.index === index && f.count === count),
  );
  if (missing.length > 0) {
    return fail(
      EXIT.cannotRun,
      `${missing.map((i) => `shard ${i}/${count}`).join(', ')} ${missing.length === 1 ? 'is' : 'are'} missing (no ${missing.map((i) => join(shardsDir, `${i}-of-${count}`, 'results.json')).join(', ')}); a merge of part of a run would not be its verdict`,
    );
  }
  const { mergeShardResults } = await import('./reporters/merge.ts');
  const shards = found.filter((f) => f.count === count).sort((a, b) => a.index - b.index);
  const merged = mergeShardResults(shards.map((s) => JSON.parse(readFileSync(join(s.dir, 'results.json'), 'utf8')) as RunResult));
  if ('problem' in merged) return fail(EXIT.cannotRun, merged.problem);
  const { writeReports, prepareReportDir } = await import('./reporters/write.ts');
  const { printRunSummary } = await import('./reporters/console.ts');
  const { writeGithubOutput } = await import('./reporters/github.ts');
  prepareReportDir(outDir);
  const paths = writeReports(merged.result, outDir);
  const print = (line: string) => process.stdout.write(`${line}\n`);
  print(`merged ${count} shard${count === 1 ? '' : 's'} of the run against ${merged.result.info.target}`);
  printRunSummary(merged.result, paths, print);
  writeGithubOutput(merged.result, process.env, print);
  return exitCodeOf(merged.result);
}

main().then(
  (code) => exitWhenFlushed(code),
  (error: unknown) => exitWhenFlushed(fail(EXIT.cannotRun, error instanceof Error ? error.message : String(error))),
);
