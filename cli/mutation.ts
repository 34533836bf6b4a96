// `npm run mutation`: proves the suite can fail. For every fault of the mock's catalogue, runs the
// whole suite against a mock with that one fault and checks that a test citing the fault's clause
// fails; and runs it against the conformant mock with several seeds, where nothing may fail.
// Work is spread over child processes (one per core by default); each runs the suite in process.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { faultCatalogue } from '../mock/faults/catalogue.ts';
import { startEmbeddedTarget } from './embedded.ts';
import { DEFAULTS } from './options.ts';
import { projectRoot, runSuite } from './run-suite.ts';

interface Job {
  kind: 'fault' | 'conformant';
  fault?: string;
  seed: number;
  numRuns: number;
}

export interface JobResult {
  kind: Job['kind'];
  fault?: string;
  clause?: string;
  seed: number;
  /** Fault: a test citing its clause failed. Conformant run: nothing failed. */
  passed: boolean;
  caughtBy?: string;
  failedTests: number;
  /** Failed tests citing other clauses than the fault's. */
  collateral: string[];
  ms: number;
  error?: string;
}

/** Generated cases per property against a faulty mock: fewer than a normal run, to keep the gate
 * fast. With a fixed seed they are the first cases a longer run would send. */
const FAULT_NUM_RUNS = 10;

const USAGE = `Usage: npm run mutation -- [--faults ID,ID] [--jobs N] [--seeds N] [--json FILE]

Runs the suite against the mock with each fault of its catalogue (mock/faults/), with
${FAULT_NUM_RUNS} cases per property, and against the conformant mock with N seeds (default 3) and
the default ${DEFAULTS.numRuns} cases per property. Passes when every fault is caught by a test
citing its clause and the conformant runs have no failure.`;

async function runJob(job: Job): Promise<JobResult> {
  const started = Date.now();
  const fault = job.fault ? faultCatalogue.find((f) => f.id === job.fault) : undefined;
  const embedded = await startEmbeddedTarget(job.fault ? { faults: [job.fault] } : {});
  const outDir = mkdtempSync(join(tmpdir(), 'mutation-reports-'));
  try {
    const { result } = await runSuite({
      target: embedded.target,
      strict: true,
      seed: job.seed,
      numRuns: job.numRuns,
      allowWrites: false,
      allowRateLimitExhaustion: false,
      maxRequests: DEFAULTS.maxRequests,
      requestTimeoutMs: 5_000,
      runTimeoutSeconds: 300,
      outDir,
      extraRequests: 0,
      print: () => {},
    });
    const failed = result?.tests.filter((t) => t.state === 'failed') ?? [];
    const base = { kind: job.kind, seed: job.seed, failedTests: failed.length, ms: Date.now() - started };
    if (!result) return { ...base, passed: false, collateral: [], error: 'the suite reported no result' };
    if (job.kind === 'conformant') {
      const problems = [...failed.map((t) => t.name), ...result.unhandled, ...result.untagged.map((t) => `untagged: ${t.name}`)];
      return { ...base, passed: problems.length === 0, collateral: problems };
    }
    const catching = failed.filter((t) => t.clause === fault!.clause);
    return {
      ...base,
      fault: fault!.id,
      clause: fault!.clause,
      passed: catching.length > 0,
      ...(catching[0] ? { caughtBy: catching[0].name } : {}),
      collateral: failed.filter((t) => t.clause !== fault!.clause).map((t) => t.name),
    };
  } finally {
    await embedded.close();
    rmSync(outDir, { recursive: true, force: true });
  }
}

/** Worker mode: runs the jobs it is given, in order, and prints their results as JSON lines. */
async function worker(jobs: Job[]): Promise<void> {
  for (const job of jobs) {
    let result: JobResult;
    try {
      result = await runJob(job);
    } catch (error) {
      result = { kind: job.kind, ...(job.fault ? { fault: job.fault } : {}), seed: job.seed, passed: false, failedTests: 0, collateral: [], ms: 0, error: (error as Error).message };
    }
    process.stdout.write(`RESULT ${JSON.stringify(result)}\n`);
  }
}

function spawnWorker(jobs: Job[], onResult: (result: JobResult) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(projectRoot, 'cli', 'mutation.ts'), '--worker', JSON.stringify(jobs)], {
      cwd: projectRoot,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let buffer = '';
    child.stdout.on('data', (chunk: Buffer) => {
      buffer += chunk.toString('utf8');
      let newline: number;
      while ((newline = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + 1);
        if (line.startsWith('RESULT ')) onResult(JSON.parse(line.slice(7)) as JobResult);
      }
    });
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`a mutation worker exited with ${code}`))));
  });
}

function pad(text: string, width: number): string {
  return text.length >= width ? text : text + ' '.repeat(width - text.length);
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    args: process.argv.slice(2),
    strict: true,
    options: {
      worker: { type: 'string' },
      faults: { type: 'string' },
      jobs: { type: 'string' },
      seeds: { type: 'string', default: '3' },
      json: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.worker) {
    await worker(JSON.parse(values.worker) as Job[]);
    return 0;
  }
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const selected = values.faults ? values.faults.split(',').map((s) => s.trim()) : faultCatalogue.map((f) => f.id);
  const unknown = selected.filter((id) => !faultCatalogue.some((f) => f.id === id));
  if (unknown.length > 0) throw new Error(`unknown fault ${unknown.join(', ')}; see mock/faults/README.md`);
  const seedCount = Number(values.seeds);
  const jobCount = Number(values.jobs ?? Math.max(1, Math.min(availableParallelism(), 4)));
  if (!Number.isInteger(seedCount) || seedCount < 1) throw new Error(`--seeds needs a positive integer, got "${values.seeds}"`);
  if (!Number.isInteger(jobCount) || jobCount < 1) throw new Error(`--jobs needs a positive integer, got "${values.jobs}"`);

  const started = Date.now();
  const seeds = Array.from({ length: seedCount }, (_, i) => 1000 + i * 7919);
  const jobs: Job[] = [
    ...seeds.map((seed) => ({ kind: 'conformant' as const, seed, numRuns: DEFAULTS.numRuns })),
    ...selected.map((fault) => ({ kind: 'fault' as const, fault, seed: seeds[0]!, numRuns: FAULT_NUM_RUNS })),
  ];
  const lanes: Job[][] = Array.from({ length: jobCount }, () => []);
  jobs.forEach((job, i) => lanes[i % jobCount]!.push(job));
  const results: JobResult[] = [];
  process.stdout.write(`mutation gate: ${selected.length} faults and ${seedCount} conformant runs over ${jobCount} workers\n`);
  await Promise.all(lanes.filter((l) => l.length > 0).map((lane) => spawnWorker(lane, (r) => {
    results.push(r);
    const label = r.kind === 'fault' ? r.fault! : `conformant mock, seed ${r.seed}`;
    process.stdout.write(`  ${r.passed ? 'ok  ' : 'FAIL'} ${label} (${(r.ms / 1000).toFixed(1)} s)\n`);
  })));

  const faults = selected.map((id) => results.find((r) => r.fault === id)!).filter(Boolean);
  const conformanceRuns = results.filter((r) => r.kind === 'conformant');
  const killed = faults.filter((r) => r.passed).length;
  const score = faults.length === 0 ? 0 : (100 * killed) / faults.length;
  const wallMs = Date.now() - started;

  const width = Math.max(...faults.map((f) => f.fault!.length), 5);
  const clauseWidth = Math.max(...faults.map((f) => (f.clause ?? '').length), 6);
  process.stdout.write(`\n${pad('fault', width)}  ${pad('clause', clauseWidth)}  ${pad('time', 7)}  caught by\n`);
  for (const f of faults) {
    const caught = f.passed ? f.caughtBy! : `SURVIVED${f.error ? ` (${f.error})` : ''}`;
    const collateral = f.collateral.length > 0 ? ` (+${f.collateral.length} other failing test${f.collateral.length === 1 ? '' : 's'})` : '';
    process.stdout.write(`${pad(f.fault!, width)}  ${pad(f.clause ?? '', clauseWidth)}  ${pad(`${(f.ms / 1000).toFixed(1)} s`, 7)}  ${caught}${collateral}\n`);
  }
  process.stdout.write('\n');
  for (const run of conformanceRuns) {
    process.stdout.write(`conformant mock, seed ${run.seed}: ${run.passed ? 'no failure' : `FAILED: ${run.collateral.join('; ') || run.error}`}\n`);
  }
  process.stdout.write(`\nmutation score: ${killed}/${faults.length} = ${score.toFixed(1)}% (gate: 100%)\n`);
  process.stdout.write(`false positives on the conformant mock: ${conformanceRuns.filter((r) => !r.passed).length} of ${conformanceRuns.length} runs\n`);
  process.stdout.write(`wall time: ${(wallMs / 1000).toFixed(1)} s\n`);
  if (values.json) {
    writeFileSync(values.json, JSON.stringify({ score, killed, total: faults.length, wallMs, faults, conformanceRuns }, null, 2));
  }
  const ok = killed === faults.length && faults.length > 0 && conformanceRuns.every((r) => r.passed);
  return ok ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`error: ${(error as Error).message}\n`);
    process.exit(2);
  },
);
