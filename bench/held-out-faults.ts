// `npm run bench:held-out`: how many faults it was never shown does the suite catch? Runs the
// whole conformance suite, as `npm start` runs it against the embedded mock, once against the
// conformant mock (which must give no failure at all, or a fault counted caught could be a false
// positive) and once per fault of the held-out catalogue (mock/faults/held-out/), then prints per
// fault whether a test failed, which ones, and whether one of them was a contract-level (gating)
// test, and the totals.
//
// Each run is the command line (`cli/conformance.ts`) in a child process, pointed by a target file
// at a mock this process starts with the fault installed through the mock's `customize` hook, set
// up as the embedded target is (targets/mock.yaml, the shared signing key, the embedded bucket
// and refill, the embedded mock's default of generated cases). Runs go two at a time at most, each
// under a time bound, and the whole script under another.
import { heldOutRounds } from '../mock/faults/held-out/rounds.ts';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, openSync, closeSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { stringify } from 'yaml';
import { EMBEDDED_BUCKET_MARGIN, EMBEDDED_REFILL_PER_SECOND, exhaustionCapFor, mockTargetDescription } from '../cli/embedded.ts';
import type { FaultHooks } from '../mock/app.ts';
import type { HeldOutFault } from '../mock/faults/held-out/held-out-fault.ts';
import { createMockServer } from '../mock/index.ts';

const root = fileURLToPath(new URL('..', import.meta.url));

/** Generated cases per property test: the embedded mock's default (README, Options, --num-runs). */
const EMBEDDED_NUM_RUNS = 20;
/** The most runs at a time: the machine has two cores, and each run is a suite and its mock. */
const MAX_WORKERS = 2;
/** Any cap will do for the listing: its total counts the exhaustion at the cap, which is taken off again. */
const LISTING_EXHAUSTION_CAP = 1000;
/** How many failing test titles a line names before it says how many more there are. */
const TITLES_SHOWN = 2;

/**
 * The rounds of held-out faults, each written apart from the suite at its own time: a round
 * measures the suite as it stood when the round was written (docs/held-out-faults.md).
 */
const ROUNDS = heldOutRounds;
const everyRound = Object.values(ROUNDS).flat();

const USAGE = `Usage: npm run bench:held-out -- [--round N] [--faults ID[,ID]] [--workers N] [--seed N] [--run-timeout S] [--bound-minutes M] [--json FILE]

Runs the whole suite against the conformant mock, then against the mock with each held-out fault
(mock/faults/held-out/) installed, and prints which faults the suite catches and by which tests.
  --round N          only the faults of round N (${Object.keys(ROUNDS).join(' or ')}; default: every round)
  --faults ID[,ID]   only these held-out faults (default: all of the rounds asked for)
  --workers N        runs at a time, 1 or 2 (default 2)
  --seed N           the suite's seed, the same for every run (default 1)
  --run-timeout S    bound of one suite run (default 300)
  --bound-minutes M  bound of the whole script; faults not started by then are reported as not run (default 90)
  --json FILE        also write every outcome as JSON
Exit 0 when both runs of the conformant mock (before and after the faults) passed with no failure and
every fault run finished; 1 otherwise.`;

interface Settings {
  faults: readonly HeldOutFault[];
  workers: number;
  seed: number;
  runTimeoutMs: number;
  deadline: number;
  json?: string;
}

/** The run's sizes, as the embedded target has them: a bucket holding the plan, and two of them for the exhaustion. */
interface Sizing {
  bucketSize: number;
  exhaustionMax: number;
  maxRequests: number;
}

interface FailedTest {
  name: string;
  level: string;
  clause: string;
}

interface RunOutcome {
  /** The run finished and wrote its results. */
  finished: boolean;
  verdict: string;
  exitCode: number | null;
  failed: FailedTest[];
  tests: number;
  commit?: string;
  /** Why the run did not finish (a timeout, no results written). */
  error?: string;
  /** Failures the mock itself reported (a fault's code that threw, answered 500). */
  mockProblems: string[];
  ms: number;
}

interface FaultOutcome extends RunOutcome {
  fault: HeldOutFault;
}

function settingsFrom(argv: string[]): Settings | 'help' {
  const { values } = parseArgs({
    args: argv,
    options: {
      faults: { type: 'string' },
      round: { type: 'string' },
      workers: { type: 'string', default: String(MAX_WORKERS) },
      seed: { type: 'string', default: '1' },
      'run-timeout': { type: 'string', default: '300' },
      'bound-minutes': { type: 'string', default: '90' },
      json: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) return 'help';
  const integer = (name: string, text: string, min: number, max: number) => {
    const value = Number(text);
    if (!Number.isInteger(value) || value < min || value > max)
      throw new UsageError(`--${name} must be an integer from ${min} to ${max} (got ${text})`);
    return value;
  };
  const wanted = values.faults
    ?.split(',')
    .map((id) => id.trim())
    .filter((id) => id.length > 0);
  if (values.round !== undefined && !(values.round in ROUNDS))
    throw new UsageError(`--round must be ${Object.keys(ROUNDS).join(' or ')} (got ${values.round})`);
  const pool = values.round === undefined ? everyRound : ROUNDS[values.round]!;
  const unknown = wanted?.filter((id) => !pool.some((fault) => fault.id === id)) ?? [];
  if (unknown.length > 0) throw new UsageError(`unknown held-out fault ${unknown.join(', ')}; see mock/faults/held-out/`);
  return {
    faults: wanted ? pool.filter((fault) => wanted.includes(fault.id)) : pool,
    workers: integer('workers', values.workers, 1, MAX_WORKERS),
    seed: integer('seed', values.seed, 0, 2 ** 31 - 1),
    runTimeoutMs: integer('run-timeout', values['run-timeout'], 10, 3600) * 1000,
    deadline: Date.now() + integer('bound-minutes', values['bound-minutes'], 1, 600) * 60_000,
    ...(values.json ? { json: values.json } : {}),
  };
}

class UsageError extends Error {}

/**
 * The environment of a run: the caller's, without what would change the run or write outside it,
 * and without the user's token cache (each run's mock is a new server, often at a port an earlier
 * one had).
 */
function runEnvironment(): NodeJS.ProcessEnv {
  return {
    ...Object.fromEntries<string | undefined>(
      Object.entries(process.env).filter(([name]) => !name.startsWith('CONFORMANCE_') && !name.startsWith('GITHUB_')),
    ),
    CONFORMANCE_NO_TOKEN_CACHE: 'true',
  };
}

/** The command line in a child process, its output to `logFile`; killed (its process group) past the bound. */
function conformance(args: string[], logFile: string, timeoutMs: number): Promise<{ exitCode: number | null; timedOut: boolean }> {
  const log = openSync(logFile, 'w');
  const child = spawn(process.execPath, ['--import', 'tsx', 'cli/conformance.ts', ...args], {
    cwd: root,
    env: runEnvironment(),
    stdio: ['ignore', log, log],
    detached: true,
  });
  closeSync(log);
  return new Promise((resolve) => {
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
    }, timeoutMs);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ exitCode: code, timedOut });
    });
  });
}

/** targets/mock.yaml pointed at a mock on its port, with the shared signing key. */
/** The target file of a mock; `bucketSize`, where given, is the bucket the mock was started with. */
function writeTarget(dir: string, mock: { url: string; audience: string }, signingKey: string, bucketSize?: number): string {
  const description = mockTargetDescription();
  const file = join(dir, 'target.yaml');
  writeFileSync(
    file,
    stringify({
      ...description,
      base_url: `${mock.url}/api/v2`,
      auth_url: mock.url,
      audience: mock.audience,
      signing_key_file: signingKey,
      ...(bucketSize !== undefined ? { rate_limit: { ...(description.rate_limit as object), bucket_size: bucketSize } } : {}),
    }),
  );
  return file;
}

interface ResultsFile {
  verdict: string;
  info?: { commit?: string };
  tests: Array<{ name: string; level: string; clause: string; state: string }>;
}

/** Starts a mock (with the fault's hooks), runs the whole suite against it, reads its results. */
async function runSuite(
  dir: string,
  signingKey: string,
  sizing: Sizing,
  settings: Settings,
  install?: (hooks: FaultHooks) => void,
): Promise<RunOutcome> {
  const started = performance.now();
  mkdirSync(dir, { recursive: true });
  const mockProblems: string[] = [];
  const mock = await createMockServer({
    port: 0,
    host: '127.0.0.1',
    signingKey,
    rateLimit: { bucketSize: sizing.bucketSize, refillPerSecond: EMBEDDED_REFILL_PER_SECOND },
    report: (line) => mockProblems.push(line),
    ...(install ? { customize: install } : {}),
  });
  try {
    const reports = join(dir, 'reports');
    const args = [
      '--target-file',
      writeTarget(dir, mock, signingKey, sizing.bucketSize),
      '--out',
      reports,
      '--seed',
      String(settings.seed),
    ];
    args.push(
      '--num-runs',
      String(EMBEDDED_NUM_RUNS),
      '--exhaustion-max',
      String(sizing.exhaustionMax),
      '--max-requests',
      String(sizing.maxRequests),
    );
    const { exitCode, timedOut } = await conformance(args, join(dir, 'run.log'), settings.runTimeoutMs);
    const resultsFile = join(reports, 'results.json');
    const base = { exitCode, mockProblems, ms: performance.now() - started };
    if (timedOut) return { ...notRun(`no result within ${settings.runTimeoutMs / 1000} s`), ...base, verdict: 'TIMEOUT' };
    if (!existsSync(resultsFile)) {
      return { ...notRun(`exit ${exitCode} without results (see ${join(dir, 'run.log')})`), ...base, verdict: 'ERROR' };
    }
    const results = JSON.parse(readFileSync(resultsFile, 'utf8')) as ResultsFile;
    return {
      ...base,
      finished: true,
      verdict: results.verdict,
      failed: results.tests.filter((t) => t.state === 'failed').map((t) => ({ name: t.name, level: t.level, clause: t.clause })),
      tests: results.tests.length,
      ...(results.info?.commit ? { commit: results.info.commit } : {}),
    };
  } finally {
    await mock.close();
  }
}

/** The plan of a run without the exhaustion, from `--list` (which sends nothing): the embedded bucket holds it. */
async function sizingOf(work: string, signingKey: string): Promise<Sizing> {
  const listing = join(work, 'plan');
  mkdirSync(listing, { recursive: true });
  const mock = await createMockServer({ port: 0, host: '127.0.0.1', signingKey });
  try {
    const log = join(listing, 'list.log');
    const args = ['--target-file', writeTarget(listing, mock, signingKey), '--list', '--num-runs', String(EMBEDDED_NUM_RUNS)];
    args.push('--exhaustion-max', String(LISTING_EXHAUSTION_CAP), '--max-requests', String(1_000_000));
    const { exitCode } = await conformance(args, log, 120_000);
    const total = /^total: (\d+) requests/m.exec(readFileSync(log, 'utf8'));
    if (exitCode !== 0 || !total) throw new Error(`the suite's plan could not be read (exit ${exitCode}; see ${log})`);
    const plan = Number(total[1]) - LISTING_EXHAUSTION_CAP;
    const bucketSize = plan + EMBEDDED_BUCKET_MARGIN;
    const exhaustionMax = exhaustionCapFor(bucketSize);
    return { bucketSize, exhaustionMax, maxRequests: plan + exhaustionMax };
  } finally {
    await mock.close();
  }
}

function notRun(why: string): RunOutcome {
  return { finished: false, verdict: 'NOT RUN', exitCode: null, failed: [], tests: 0, error: why, mockProblems: [], ms: 0 };
}

function titles(failed: readonly FailedTest[]): string {
  const shown = failed.slice(0, TITLES_SHOWN).map((t) => t.name);
  const more = failed.length > TITLES_SHOWN ? `; and ${failed.length - TITLES_SHOWN} more` : '';
  return `${shown.join('; ')}${more}`;
}

function faultLine(outcome: FaultOutcome, index: number, count: number): string {
  const { fault, failed } = outcome;
  const contract = failed.filter((t) => t.level === 'contract').length;
  const own = failed.filter((t) => t.clause === fault.clause).length;
  const state = !outcome.finished ? `NOT RUN (${outcome.error})` : failed.length === 0 ? `survived (${outcome.verdict})` : 'caught';
  const by = failed.length > 0 ? ` by ${failed.length} test(s), ${contract} contract-level, ${own} of its clause: ${titles(failed)}` : '';
  const problems =
    outcome.mockProblems.length > 0
      ? `\n      note: the mock reported ${outcome.mockProblems.length} error(s): ${outcome.mockProblems[0]}`
      : '';
  return `[${index}/${count}] ${fault.id} (${fault.level}, ${fault.clause}): ${state}${by}${problems}`;
}

const percent = (part: number, whole: number) => (whole === 0 ? '-' : `${((100 * part) / whole).toFixed(0)}%`);
const share = (part: readonly unknown[], whole: readonly unknown[]) =>
  `${part.length} of ${whole.length} (${percent(part.length, whole.length)})`;

/** A run of the conformant mock that says PASS with no failure, observed ones included, and no error of the mock. */
function passesCleanly(run: RunOutcome): boolean {
  return run.finished && run.verdict === 'PASS' && run.failed.length === 0 && run.mockProblems.length === 0;
}

function controlLine(name: string, run: RunOutcome): string {
  const detail = run.error ?? (run.failed.length > 0 ? `: ${titles(run.failed)}` : '');
  return `${name}: ${run.verdict}, ${run.failed.length} failed of ${run.tests} tests, ${(run.ms / 1000).toFixed(1)} s${detail}`;
}

function totals(outcomes: readonly FaultOutcome[], controls: readonly RunOutcome[], settings: Settings, wallMs: number): string[] {
  const ran = outcomes.filter((o) => o.finished);
  const caught = ran.filter((o) => o.failed.length > 0);
  const byContract = ran.filter((o) => o.failed.some((t) => t.level === 'contract'));
  const byOwnClause = ran.filter((o) => o.failed.some((t) => t.clause === o.fault.clause));
  const contractFaults = ran.filter((o) => o.fault.level === 'contract');
  const observedFaults = ran.filter((o) => o.fault.level === 'observed');
  const survivors = ran.filter((o) => o.failed.length === 0);
  return [
    '',
    ...controls.map((run, i) => controlLine(i === 0 ? 'control before (no fault)' : 'control after (no fault)', run)),
    `held-out faults run: ${ran.length} of ${outcomes.length} (${contractFaults.length} contract-level, ${observedFaults.length} observed-level)`,
    `caught at any level: ${share(caught, ran)}`,
    `caught by a contract-level (gating) test: ${share(byContract, ran)}`,
    `caught by a test of the clause the fault breaks: ${share(byOwnClause, ran)}`,
    `contract-level faults caught at contract level: ${share(
      contractFaults.filter((o) => o.failed.some((t) => t.level === 'contract')),
      contractFaults,
    )}`,
    `observed-level faults caught at any level: ${share(
      observedFaults.filter((o) => o.failed.length > 0),
      observedFaults,
    )}`,
    `survivors (${survivors.length}):`,
    ...survivors.map((o) => `  ${o.fault.id} (${o.fault.level}, ${o.fault.clause}; verdict ${o.verdict})`),
    ...outcomes.filter((o) => !o.finished).map((o) => `not run or not finished: ${o.fault.id}: ${o.error}`),
    `seed ${settings.seed}, ${settings.workers} worker(s), commit ${controls[0]?.commit ?? 'unknown'}, ${new Date().toISOString().slice(0, 10)}, wall time ${(wallMs / 1000).toFixed(0)} s`,
  ];
}

async function main(): Promise<number> {
  let settings: Settings | 'help';
  try {
    settings = settingsFrom(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n${USAGE}\n`);
    return 2;
  }
  if (settings === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const started = performance.now();
  const work = mkdtempSync(join(tmpdir(), 'held-out-faults-'));
  let clean = false;
  try {
    const signingKey = join(work, 'signing-key.pem');
    const sizing = await sizingOf(work, signingKey);
    process.stdout.write(
      `plan: bucket ${sizing.bucketSize}, exhaustion at most ${sizing.exhaustionMax}, ${EMBEDDED_NUM_RUNS} generated cases per property\n`,
    );

    const before = await runSuite(join(work, 'control-before'), signingKey, sizing, settings);
    process.stdout.write(`${controlLine('control before (no fault)', before)}\n`);
    if (!passesCleanly(before)) {
      process.stdout.write('the conformant mock does not pass cleanly: no fault can be counted; stopping\n');
      return 1;
    }

    const queue = [...settings.faults.entries()];
    const outcomes: FaultOutcome[] = [];
    let done = 0;
    const worker = async () => {
      for (let next = queue.shift(); next; next = queue.shift()) {
        const [index, fault] = next;
        const run =
          Date.now() > settings.deadline
            ? notRun('the time bound was reached first')
            : await runSuite(join(work, `${index}-${fault.id}`), signingKey, sizing, settings, (hooks) => fault.install(hooks));
        outcomes[index] = { fault, ...run };
        done += 1;
        process.stdout.write(`${faultLine(outcomes[index], done, settings.faults.length)}\n`);
      }
    };
    await Promise.all(Array.from({ length: settings.workers }, worker));

    // Again after the faults, under the same load: a suite that fails the conformant mock now and
    // then would count its flaky failures as catches.
    const after = await runSuite(join(work, 'control-after'), signingKey, sizing, settings);
    const controls = [before, after];
    process.stdout.write(`${totals(outcomes, controls, settings, performance.now() - started).join('\n')}\n`);
    if (settings.json) {
      const rows = outcomes.map(({ fault, ...run }) => ({
        id: fault.id,
        level: fault.level,
        clause: fault.clause,
        bug: fault.description,
        ...run,
      }));
      writeFileSync(settings.json, `${JSON.stringify({ controls, faults: rows }, null, 2)}\n`);
    }
    clean = passesCleanly(after) && outcomes.every((o) => o.finished);
    return clean ? 0 : 1;
  } finally {
    if (clean) rmSync(work, { recursive: true, force: true });
    else process.stdout.write(`the runs' logs are kept in ${work}\n`);
  }
}

process.exitCode = await main();
