// `npm run bench:busy`: the verdict against the embedded mock must not depend on the machine.
// Pins everything to one core next to a competing busy process (a CPU-bound loop on the same
// core) and runs, in turn:
//   - the 429 clause alone (--grep) N times: its test must pass every time;
//   - the whole `npm start` N times: PASS every time;
//   - the mutation gate once (one worker): no false positive on the conformant mock, every fault caught;
//   - optionally `npm test` once (--with-tests).
// It prints a line per run and a table, and exits 1 if any run went the wrong way. Bounded: each
// run has a timeout, the whole script a time bound, and the busy process dies with it.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

const USAGE = `Usage: npm run bench:busy -- [--runs N] [--core C] [--bound-minutes M] [--with-tests] [--no-mutation]

Runs the 429 clause and the whole npm start N times each (default 20), then the mutation gate,
pinned to core C (default 0) beside a busy process on that core. Exit 1 if any run went wrong.`;

interface Outcome {
  what: string;
  ok: boolean;
  ms: number;
  detail: string;
}

interface Bench {
  deadline: number;
  /** The command, pinned to the core when taskset is there. */
  pin: (command: string[]) => string[];
  work: string;
  outcomes: Outcome[];
}

type Judge = (code: number | null, out: string, outDir: string) => string | undefined;

function parseOptions() {
  const { values } = parseArgs({
    args: process.argv.slice(2),
    options: {
      runs: { type: 'string', default: '20' },
      core: { type: 'string', default: '0' },
      'bound-minutes': { type: 'string', default: '60' },
      'with-tests': { type: 'boolean', default: false },
      'no-mutation': { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  return values;
}

/** One run of a project command (node with tsx), judged by what it printed and wrote; skipped past the time bound. */
function once(bench: Bench, what: string, args: string[], judge: Judge, timeoutMs: number): void {
  if (Date.now() > bench.deadline) return;
  const outDir = join(bench.work, `${bench.outcomes.length}`);
  const [command, ...rest] = bench.pin([process.execPath, '--import', 'tsx', ...args.map((a) => a.replace('{out}', outDir))]);
  const started = Date.now();
  const result = spawnSync(command!, rest, {
    cwd: root,
    encoding: 'utf8',
    timeout: Math.min(timeoutMs, bench.deadline - Date.now()),
    maxBuffer: 64 * 1024 * 1024,
  });
  const problem = result.error ? `did not finish: ${result.error.message}` : judge(result.status, result.stdout + result.stderr, outDir);
  const outcome = { what, ok: problem === undefined, ms: Date.now() - started, detail: problem ?? '' };
  bench.outcomes.push(outcome);
  process.stdout.write(`${outcome.ok ? 'ok  ' : 'FAIL'} ${what} (${(outcome.ms / 1000).toFixed(1)} s)${problem ? `: ${problem}` : ''}\n`);
}

/** The 429 clause alone, `runs` times: its test must pass every time. */
function run429(bench: Bench, runs: number): void {
  for (let i = 1; i <= runs; i += 1) {
    once(
      bench,
      `429 clause, run ${i}/${runs}`,
      ['cli/conformance.ts', '--grep', '[§7 redeliver.errors.429]', '--out', '{out}'],
      (_, out, outDir) => {
        const test = readResults(outDir)?.tests.find((t) => t.clause === 'redeliver.errors.429');
        return test?.state === 'passed' ? undefined : `the 429 test ${test?.state ?? 'did not run'}: ${lastLines(out)}`;
      },
      300_000,
    );
  }
}

/** The whole `npm start`, `runs` times: PASS every time. */
function runStart(bench: Bench, runs: number): void {
  for (let i = 1; i <= runs; i += 1) {
    once(
      bench,
      `npm start, run ${i}/${runs}`,
      ['cli/conformance.ts', '--out', '{out}'],
      (code, out) => (code === 0 ? undefined : `exit ${code}: ${lastLines(out)}`),
      600_000,
    );
  }
}

/** `npm test` once, under the same load. */
function runTests(bench: Bench): void {
  const report = join(bench.work, 'tests.json');
  const [command, ...rest] = bench.pin(['npx', 'vitest', 'run', '--reporter=dot', '--reporter=json', `--outputFile.json=${report}`]);
  const started = Date.now();
  const result = spawnSync(command!, rest, {
    cwd: root,
    encoding: 'utf8',
    timeout: Math.max(0, bench.deadline - Date.now()),
    maxBuffer: 64 * 1024 * 1024,
  });
  const ok = result.status === 0;
  const detail = ok ? '' : `exit ${result.status ?? result.signal}: ${failedTests(report) || lastLines(result.stdout ?? '', 6)}`;
  bench.outcomes.push({ what: 'npm test', ok, ms: Date.now() - started, detail });
  process.stdout.write(`${ok ? 'ok  ' : 'FAIL'} npm test (${((Date.now() - started) / 1000).toFixed(1)} s)\n`);
}

/** A line per group of runs (min / median / max), then what went wrong. */
function printSummary(bench: Bench, core: string | undefined): void {
  const groups = new Map<string, Outcome[]>();
  for (const o of bench.outcomes) {
    const group = o.what.replace(/, run \d+\/\d+$/, '');
    groups.set(group, [...(groups.get(group) ?? []), o]);
  }
  process.stdout.write(`\npinned to core ${core ?? '(none)'} beside a busy process\n`);
  for (const [group, list] of groups) {
    const times = list.map((o) => o.ms / 1000).sort((a, b) => a - b);
    const median = times[Math.floor(times.length / 2)]!;
    process.stdout.write(
      `${group}: ${list.filter((o) => o.ok).length} of ${list.length} as expected; wall ${times[0]!.toFixed(1)} / ${median.toFixed(1)} / ${times.at(-1)!.toFixed(1)} s (min / median / max)\n`,
    );
  }
  for (const o of bench.outcomes.filter((outcome) => !outcome.ok)) process.stdout.write(`\n${o.what} went wrong: ${o.detail}\n`);
  if (Date.now() > bench.deadline) process.stdout.write('the script reached its time bound; runs after it were not made\n');
}

function main(): number {
  const values = parseOptions();
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const runs = Number(values.runs);
  const pinned = spawnSync('taskset', ['--version']).status === 0;
  if (!pinned) process.stdout.write('note: taskset is not available; the runs share every core with the busy process instead of one\n');
  const bench: Bench = {
    deadline: Date.now() + Number(values['bound-minutes']) * 60_000,
    pin: (command) => (pinned ? ['taskset', '-c', values.core, ...command] : command),
    work: mkdtempSync(join(tmpdir(), 'busy-runner-')),
    outcomes: [],
  };
  // The competitor: a loop that never yields, on the same core, for as long as the script lives.
  const [busyCommand, ...busyArgs] = bench.pin([process.execPath, '-e', 'for (;;) {}']);
  const busy: ChildProcess = spawn(busyCommand!, busyArgs, { stdio: 'ignore' });
  const stopBusy = () => busy.kill('SIGKILL');
  process.on('exit', stopBusy);
  try {
    run429(bench, runs);
    runStart(bench, runs);
    if (!values['no-mutation']) {
      once(
        bench,
        'mutation gate, one worker',
        ['cli/mutation.ts', '--jobs', '1'],
        (code, out) => (code === 0 ? undefined : `exit ${code}: ${lastLines(out, 4)}`),
        1_800_000,
      );
    }
    if (values['with-tests']) runTests(bench);
  } finally {
    stopBusy();
    rmSync(bench.work, { recursive: true, force: true });
  }
  printSummary(bench, pinned ? values.core : undefined);
  return bench.outcomes.length > 0 && bench.outcomes.every((o) => o.ok) && Date.now() <= bench.deadline ? 0 : 1;
}

function readResults(outDir: string): { tests: Array<{ clause?: string; state: string }> } | undefined {
  try {
    return JSON.parse(readFileSync(join(outDir, 'results.json'), 'utf8')) as { tests: Array<{ clause?: string; state: string }> };
  } catch {
    return undefined;
  }
}

/** The failed tests of a vitest JSON report, each with the first line of its failure. */
function failedTests(reportFile: string): string {
  try {
    const report = JSON.parse(readFileSync(reportFile, 'utf8')) as {
      testResults: Array<{
        name: string;
        message?: string;
        assertionResults: Array<{ fullName: string; status: string; failureMessages: string[] }>;
      }>;
    };
    return report.testResults
      .flatMap((file) => [
        ...(file.assertionResults.length === 0 && file.message ? [`${file.name}: ${file.message.split('\n')[0]}`] : []),
        ...file.assertionResults
          .filter((t) => t.status === 'failed')
          .map((t) => `${t.fullName}: ${(t.failureMessages[0] ?? '').split('\n')[0]}`),
      ])
      .join('\n  ');
  } catch {
    return '';
  }
}

function lastLines(text: string, count = 2): string {
  return text.trim().split('\n').slice(-count).join(' | ');
}

process.exit(main());
