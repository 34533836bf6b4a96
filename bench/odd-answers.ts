// `npm run bench:odd-answers`: the peak memory of a whole run against a target whose answers are
// as large as the response cap lets them be. The odd target of the project's tests
// (cli/test/support/odd-target.ts) answers every operation with a body of the cap's size made of
// arrays nested as deep as it takes, or of many small arrays side by side; the baseline is the
// same run against the same target answering `{}`. Each run is a child process (`npm start` as a
// user runs it, against a target file that declares a test double, so every test that can run
// does); its peak resident set size, every thread included, is read at its exit
// (bench/peak-rss.js). It prints, per case: exit code, verdict, requests, wall time and peak RSS,
// and the ratio to the baseline. Figures only: nothing here passes or fails on them.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import type { RunResult } from '../cli/reporters/results.ts';
import { nestedArrays, startOddTarget, wideArrays, type Answer } from '../cli/test/support/odd-target.ts';
import { writeTargetFile } from '../cli/test/support/programs.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
/** The response cap of the harness (harness/http.ts): the largest answer a run reads. */
const CAP = 1024 * 1024;
/** A bucket the rate-limit exhaustion empties within its default cap, so it keeps its answers too. */
const smallBucket = (now: number) => ({
  'x-ratelimit-limit': '50',
  'x-ratelimit-remaining': '49',
  'x-ratelimit-reset': String(Math.ceil(now / 1000) + 1),
});

interface Case {
  name: string;
  answer: Answer;
}

const CASES: Case[] = [
  { name: 'baseline: {} (2 bytes)', answer: { kind: 'fixed', status: 200, contentType: 'application/json', body: '{}' } },
  { name: 'nested arrays, 1 MiB', answer: { kind: 'fixed', status: 200, contentType: 'application/json', body: nestedArrays(CAP) } },
  { name: 'arrays side by side, 1 MiB', answer: { kind: 'fixed', status: 200, contentType: 'application/json', body: wideArrays(CAP) } },
];

interface Row {
  name: string;
  exit: number | null;
  verdict: string;
  requests: number | string;
  wallS: number;
  peakMb: number;
}

async function measure(kase: Case, work: string, runTimeoutS: number): Promise<Row> {
  const target = await startOddTarget({ operations: kase.answer, rateLimitHeaders: smallBucket });
  const out = join(work, `out-${CASES.indexOf(kase)}`);
  const rssDir = join(work, `rss-${CASES.indexOf(kase)}`);
  mkdirSync(rssDir);
  try {
    const file = writeTargetFile({
      url: target.url,
      dir: work,
      name: `odd-${CASES.indexOf(kase)}.yaml`,
      change: (t) => (t.test_double = true),
    });
    const started = Date.now();
    const exit = await new Promise<number | null>((resolve, reject) => {
      const child = spawn(
        process.execPath,
        ['--import', 'tsx', 'cli/conformance.ts', '--target-file', file.path, '--run-timeout', String(runTimeoutS), '--out', out],
        {
          cwd: root,
          env: {
            ...process.env,
            ...file.env,
            BENCH_PEAK_RSS_DIR: rssDir,
            NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import ${pathToFileURL(join(root, 'bench', 'peak-rss.js')).href}`,
          },
          stdio: ['ignore', 'ignore', 'inherit'],
        },
      );
      child.on('error', reject);
      child.on('exit', (code, signal) => resolve(code ?? (signal ? 128 : null)));
    });
    const wallS = (Date.now() - started) / 1000;
    const results = existsSync(join(out, 'results.json'))
      ? (JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as RunResult)
      : undefined;
    const peaks = readdirSync(rssDir).map((pid) => Number(readFileSync(join(rssDir, pid), 'utf8')));
    process.stdout.write(`  peaks per process (MB): ${peaks.map((kb) => (kb / 1024).toFixed(0)).join(', ')}\n`);
    const peakKb = peaks.length > 0 ? peaks.reduce((a, b) => a + b, 0) : Number.NaN;
    return {
      name: kase.name,
      exit,
      verdict: results?.verdict ?? '(no report)',
      requests: results?.requests ?? '?',
      wallS,
      peakMb: peakKb / 1024,
    };
  } finally {
    await target.stop();
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { 'run-timeout': { type: 'string', default: '300' } } });
  const runTimeoutS = Number(values['run-timeout']);
  const work = mkdtempSync(join(tmpdir(), 'bench-odd-answers-'));
  try {
    const rows: Row[] = [];
    for (const kase of CASES) {
      process.stdout.write(`running: ${kase.name}...\n`);
      rows.push(await measure(kase, work, runTimeoutS));
    }
    const baseline = rows[0]!.peakMb;
    process.stdout.write(`\n${'answers'.padEnd(30)}  exit  ${'verdict'.padEnd(11)}  requests  wall     peak RSS   x baseline\n`);
    for (const row of rows) {
      process.stdout.write(
        `${row.name.padEnd(30)}  ${String(row.exit).padEnd(4)}  ${row.verdict.padEnd(11)}  ${String(row.requests).padEnd(8)}  ${`${row.wallS.toFixed(1)} s`.padEnd(7)}  ${`${row.peakMb.toFixed(0)} MB`.padEnd(9)}  ${(row.peakMb / baseline).toFixed(2)}\n`,
      );
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
