// `npm run mutation`: proves the suite can fail. Every fault of the mock's catalogue must be
// caught by a test citing the fault's clause, and the conformant mock must pass with several
// seeds. It is fast because it does not run the whole suite per fault: each worker process starts
// vitest once and one mock per fault, then runs, in ONE vitest run, every test of the faults'
// clauses against each of its faults' mocks (the harness's matrix mode); the conformant runs are
// whole runs. A fault's tests stop at the first that fails against it (--every-test runs them
// all). Work is spread over worker processes, one per core by default.
import { exitWhenFlushed } from './exit.ts';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { projectRoot } from './paths.ts';
import { FIRST_CATCHES_FILE, readFirstCatches } from './first-catches.ts';
import { parseLine, type ConformantResult, type FaultResult, type WorkerJob } from './mutation-job.ts';

/** Generated cases per property against a faulty mock, on top of the deterministic ones. */
const FAULT_NUM_RUNS = 10;
const DEFAULT_SEEDS = 2;

const USAGE = `Usage: npm run mutation -- [--faults ID,ID] [--jobs N] [--seeds N] [--every-test] [--first-catches FILE] [--record-first-catches] [--json FILE]

Runs the tests citing each fault's clause against the mock with that fault (mock/faults/), with
${FAULT_NUM_RUNS} generated cases per property on top of the deterministic ones, and the whole suite against
the conformant mock with N seeds (default ${DEFAULT_SEEDS}). Passes when every fault is caught by a test
citing its clause and the conformant runs have no failure. Prints per-fault and total times.

A fault's tests stop at the first that fails against it (it is caught); --every-test runs all of
them, to see every test that catches it. A fault whose first catch is recorded
(mock/faults/first-catches.json) runs that test alone first, beside a conformant mock as its
control, and its clause's other tests only if it is not caught there. --record-first-catches
writes the test that caught each fault of this run into that file (--first-catches FILE reads and
writes another).`;

interface GateOptions {
  faults: string[];
  seeds: number;
  jobs: number;
  everyTest: boolean;
  recordFirstCatches: boolean;
  firstCatches: string;
  json?: string;
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    args: process.argv.slice(2),
    strict: true,
    options: {
      worker: { type: 'string' },
      faults: { type: 'string' },
      jobs: { type: 'string' },
      seeds: { type: 'string', default: String(DEFAULT_SEEDS) },
      json: { type: 'string' },
      'every-test': { type: 'boolean', default: false },
      'record-first-catches': { type: 'boolean', default: false },
      'first-catches': { type: 'string', default: FIRST_CATCHES_FILE },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.worker) {
    const { runWorker } = await import('./mutation-worker.ts');
    await runWorker(
      JSON.parse(readFileSync(values.worker, 'utf8')) as WorkerJob,
      (line) => process.stdout.write(`${line}\n`),
      FAULT_NUM_RUNS,
    );
    return 0;
  }
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const { faultCatalogue } = await import('../mock/faults/catalogue.ts');
  const faults = values.faults ? values.faults.split(',').map((s) => s.trim()) : faultCatalogue.map((f) => f.id);
  const unknown = faults.filter((id) => !faultCatalogue.some((f) => f.id === id));
  if (unknown.length > 0) throw new Error(`unknown fault ${unknown.join(', ')}; see mock/faults/README.md`);
  const seeds = Number(values.seeds);
  const jobs = Number(values.jobs ?? Math.max(1, Math.min(availableParallelism(), 4)));
  if (!Number.isInteger(seeds) || seeds < 0) throw new Error(`--seeds needs a non-negative integer, got "${values.seeds}"`);
  if (!Number.isInteger(jobs) || jobs < 1) throw new Error(`--jobs needs a positive integer, got "${values.jobs}"`);
  const firstCatches = resolve(values['first-catches']);
  readFirstCatches(firstCatches);
  return gate({
    faults,
    seeds,
    jobs,
    everyTest: values['every-test'],
    recordFirstCatches: values['record-first-catches'],
    firstCatches,
    ...(values.json ? { json: values.json } : {}),
  });
}

/** The gate: the faults and conformant runs spread over worker processes, then the report. */
async function gate(options: GateOptions): Promise<number> {
  const started = Date.now();
  const work = mkdtempSync(join(tmpdir(), 'mutation-'));
  try {
    // One signing key for every mock of the run: making an RSA key is the slow part of starting one.
    const keyFile = join(work, 'signing-key.pem');
    const { exportPKCS8, generateKeyPair } = await import('jose');
    writeFileSync(keyFile, await exportPKCS8((await generateKeyPair('RS256', { extractable: true })).privateKey), { mode: 0o600 });
    const seeds = Array.from({ length: options.seeds }, (_, i) => 1000 + i * 7919);
    const jobs: WorkerJob[] = Array.from({ length: options.jobs }, () => ({
      faults: [],
      seeds: [],
      keyFile,
      everyTest: options.everyTest,
      firstCatches: options.firstCatches,
    }));
    options.faults.forEach((id, i) => jobs[i % options.jobs]!.faults.push(id));
    // Conformant runs go to the workers with the fewest faults first.
    seeds.forEach((seed, i) => jobs[options.jobs - 1 - (i % options.jobs)]!.seeds.push(seed));
    process.stdout.write(
      `mutation gate: ${options.faults.length} faults and ${options.seeds} conformant runs over ${options.jobs} workers\n`,
    );
    const faults: FaultResult[] = [];
    const conformant: ConformantResult[] = [];
    const onLine = (text: string) => {
      const line = parseLine(text);
      if (line && 'fault' in line) {
        faults.push(line.fault);
        process.stdout.write(`  ${line.fault.caught ? 'ok  ' : 'FAIL'} ${line.fault.fault} (${line.fault.ms} ms)\n`);
      } else if (line) {
        conformant.push(line.conformant);
        const run = line.conformant;
        process.stdout.write(`  ${run.passed ? 'ok  ' : 'FAIL'} conformant mock, seed ${run.seed} (${(run.ms / 1000).toFixed(1)} s)\n`);
      }
    };
    await Promise.all(
      jobs
        .filter((job) => job.faults.length + job.seeds.length > 0)
        .map((job, i) => {
          const file = join(work, `job-${i}.json`);
          writeFileSync(file, JSON.stringify(job));
          return spawnWorker(file, onLine);
        }),
    );
    if (options.recordFirstCatches) recordFirstCatches(faults, options.firstCatches);
    return report(options.faults, faults, conformant, Date.now() - started, options.json);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** Writes the test that caught each fault of this run into the first-catch records, keeping the others'. */
function recordFirstCatches(results: FaultResult[], file: string): void {
  const records = readFirstCatches(file);
  for (const result of results) {
    if (result.caughtBy) records[result.fault] = result.caughtBy;
    else delete records[result.fault];
  }
  const sorted = Object.fromEntries(Object.entries(records).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  writeFileSync(file, `${JSON.stringify(sorted, null, 2)}\n`);
  process.stdout.write(`recorded the first catch of ${results.filter((r) => r.caughtBy).length} faults in ${file}\n`);
}

function spawnWorker(jobFile: string, onLine: (line: string) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(projectRoot, 'cli', 'mutation.ts'), '--worker', jobFile], {
      cwd: projectRoot,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let buffer = '';
    child.stdout.on('data', (chunk: Buffer) => {
      buffer += chunk.toString('utf8');
      let newline: number;
      while ((newline = buffer.indexOf('\n')) >= 0) {
        onLine(buffer.slice(0, newline));
        buffer = buffer.slice(newline + 1);
      }
    });
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`a mutation worker exited with ${code}`))));
  });
}

function report(
  selected: string[],
  results: FaultResult[],
  conformant: ConformantResult[],
  wallMs: number,
  jsonFile: string | undefined,
): number {
  const faults = selected.map(
    (id) =>
      results.find((r) => r.fault === id) ?? {
        fault: id,
        clause: '?',
        caught: false,
        tests: { passed: 0, failed: 0, skipped: 0, notRun: 0 },
        ms: 0,
        error: 'no result from its worker',
      },
  );
  const caught = faults.filter((r) => r.caught).length;
  const score = faults.length === 0 ? 0 : (100 * caught) / faults.length;
  const width = Math.max(...faults.map((f) => f.fault.length), 5);
  const clauseWidth = Math.max(...faults.map((f) => f.clause.length), 6);
  const out = (line: string) => process.stdout.write(`${line}\n`);
  out(`\n${'fault'.padEnd(width)}  ${'clause'.padEnd(clauseWidth)}  ${'time'.padEnd(8)}  caught by`);
  for (const f of faults) {
    const by = f.caught ? f.caughtBy! : `SURVIVED${f.error ? ` (${f.error})` : ` (${f.tests.passed} passed, ${f.tests.skipped} skipped)`}`;
    out(`${f.fault.padEnd(width)}  ${f.clause.padEnd(clauseWidth)}  ${`${f.ms} ms`.padEnd(8)}  ${by}`);
  }
  out('');
  for (const run of conformant)
    out(
      `conformant mock, seed ${run.seed}: ${run.passed ? 'no failure' : `FAILED: ${run.problems.join('; ')}`} (${(run.ms / 1000).toFixed(1)} s)`,
    );
  out(`\nmutation score: ${caught}/${faults.length} = ${score.toFixed(1)}% (gate: 100%)`);
  const byRecord = faults.filter((f) => f.byRecordedTest).length;
  out(
    `caught by their recorded first catch, run alone beside a conformant control: ${byRecord}; by their clause's tests: ${caught - byRecord}`,
  );
  out(`false positives on the conformant mock: ${conformant.filter((r) => !r.passed).length} of ${conformant.length} runs`);
  out(`wall time: ${(wallMs / 1000).toFixed(1)} s`);
  const unfailed = unfailedTests(faults);
  if (unfailed) {
    out(`\ntests that no fault of their clause failed (--every-test): ${unfailed.tests.length} of ${unfailed.ran}`);
    out(
      `requests (matrix rows and other tests, whichever clause) that no fault failed: ${unfailed.requests.length} of ${unfailed.requestsRan}`,
    );
    for (const name of unfailed.tests.slice(0, UNFAILED_SHOWN)) out(`  ${name}`);
    if (unfailed.tests.length > UNFAILED_SHOWN)
      out(`  ... ${unfailed.tests.length - UNFAILED_SHOWN} more${jsonFile ? ` in ${jsonFile}` : ' (--json FILE lists them)'}`);
  }
  if (jsonFile)
    writeFileSync(
      jsonFile,
      JSON.stringify(
        {
          score,
          killed: caught,
          total: faults.length,
          wallMs,
          faults: faults.map(({ failedTests: _failed, passedTests: _passed, ...f }) => ({ ...f, passed: f.caught })),
          conformanceRuns: conformant,
          ...(unfailed ? { unfailedTests: unfailed.tests, unfailedRequests: unfailed.requests } : {}),
        },
        null,
        2,
      ),
    );
  return caught === faults.length && faults.length > 0 && conformant.every((r) => r.passed) ? 0 : 1;
}

const UNFAILED_SHOWN = 20;

/**
 * With --every-test: the tests that passed against some fault of their clause and failed against
 * none, a check no fault has shown can fail (undefined without --every-test). Each such test wants
 * a fault of its own, or is a duplicate of another.
 */
function unfailedTests(faults: FaultResult[]): { tests: string[]; ran: number; requests: string[]; requestsRan: number } | undefined {
  if (!faults.some((f) => f.passedTests)) return undefined;
  const failed = new Set(faults.flatMap((f) => f.failedTests ?? []));
  const ran = new Set([...failed, ...faults.flatMap((f) => f.passedTests ?? [])]);
  const tests = [...ran].filter((name) => !failed.has(name)).sort();
  // A matrix row is a test per clause it bears on, and a fault runs only its own clause's tests: a
  // request counts as failed where any of its tests failed.
  const failedRequests = new Set([...failed].map(requestOf));
  const requestsRan = new Set([...ran].map(requestOf));
  const requests = [...requestsRan].filter((request) => !failedRequests.has(request)).sort();
  return { tests, ran: ran.size, requests, requestsRan: requestsRan.size };
}

/** A test's title without its clause and verb: the operation and the request it sends. */
function requestOf(title: string): string {
  const untagged = title.replace(/^\[§[^\]]*\] /, '');
  const match = /^(.*?) (?:accepts|refuses|answers .*? to|answers) (a request with .*)$/.exec(untagged);
  return match ? `${match[1]!} | ${match[2]!}` : untagged;
}

main().then(
  (code) => exitWhenFlushed(code),
  (error: unknown) => {
    process.stderr.write(`error: ${(error as Error).message}\n`);
    exitWhenFlushed(2);
  },
);
