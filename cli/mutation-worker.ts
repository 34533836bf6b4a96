// One worker of the mutation gate (cli/mutation.ts): vitest started once; one mock per fault,
// each sized to the plan of its clause's tests; every fault's tests in one matrix run; then the
// conformant runs, each a whole run against a fresh conformant mock. Results are printed as
// "FAULT {json}" and "CONFORMANT {json}" lines for the parent.
import { randomUUID } from 'node:crypto';
import { parseClauseTag } from '../specs/index.ts';
import { NOT_RUN_AFTER_FAILURE, type MatrixEntry, type RunSettings } from '../harness/runner.ts';
import { embeddedBucketFor, embeddedTargetForPlanning, exhaustionCapFor, startEmbeddedTarget, type EmbeddedTarget } from './embedded.ts';
import { formatLine, type ConformantResult, type FaultResult, type WorkerJob } from './mutation-job.ts';
import { DEFAULTS } from './options.ts';
import { projectRoot } from './paths.ts';
import { readFirstCatches } from './first-catches.ts';
import { planTests, suiteFiles } from './planner.ts';
import { testsOf } from './reporters/results.ts';
import { SuiteRunner, type PlannedTest, type SuiteRun } from './suite-runner.ts';

const RUN_BOUND_MS = 300_000;
/** --every-test runs every test of each fault's clause, several times the work of a stop at the first catch. */
const EVERY_TEST_BOUND_MS = 1_800_000;

function settingsFor(
  target: RunSettings['target'],
  seed: number,
  numRuns: number,
  exhaustionMax: number,
  boundMs = RUN_BOUND_MS,
): RunSettings {
  return {
    runId: randomUUID(),
    target,
    strict: true,
    seed,
    numRuns,
    allowWrites: false,
    allowRateLimitExhaustion: false,
    maxRequests: 100_000,
    requestTimeoutMs: 5_000,
    rateShare: 1,
    exhaustionMax,
    deadline: Date.now() + boundMs,
    filter: {},
  };
}

export async function runWorker(job: WorkerJob, say: (line: string) => void, faultNumRuns: number): Promise<void> {
  const files = suiteFiles();
  const runner = await SuiteRunner.create({ files, testTimeoutMs: job.everyTest ? EVERY_TEST_BOUND_MS : RUN_BOUND_MS });
  try {
    if (job.faults.length > 0) await runFaults(job, files, runner, say, faultNumRuns);
    await runConformant(job, files, runner, say);
  } finally {
    await runner.close();
  }
}

/**
 * The faults' tests, in two matrix runs. First, each fault with a recorded first catch
 * (mock/faults/first-catches.json) runs that one test alone, beside a conformant mock running
 * every such test as their control: the fault is caught there when its test failed against it and
 * passed against the control. Then every other fault (no record, a stale one, a test that did not
 * fail alone, or one its control failed) runs all the tests of its clause, each against a fresh
 * mock sized to their plan, stopping at the first that fails. The record only orders the work: a
 * fault counts as caught only by a test that failed against it in this run.
 */
async function runFaults(
  job: WorkerJob,
  files: string[],
  runner: SuiteRunner,
  say: (line: string) => void,
  numRuns: number,
): Promise<void> {
  const { faultCatalogue } = await import('../mock/faults/catalogue.ts');
  const tests = await planTests(files, settingsFor(await embeddedTargetForPlanning(), 1000, numRuns, 0));
  const clauseOf = (id: string) => faultCatalogue.find((f) => f.id === id)!.clause;
  const testsOfClause = (clause: string) => tests.filter((t) => parseClauseTag(t.name)?.id === clause);
  let rest = job.faults;
  if (!job.everyTest) {
    const records = readFirstCatches(job.firstCatches);
    const recorded = job.faults.filter((id) => testsOfClause(clauseOf(id)).some((t) => t.name === records[id]));
    const caught = await runRecordedCatches(recorded, records, clauseOf, tests, files, job, numRuns);
    for (const result of caught) say(formatLine({ fault: result }));
    rest = job.faults.filter((id) => !caught.some((r) => r.fault === id));
  }
  if (rest.length === 0) return;
  const bound = job.everyTest ? EVERY_TEST_BOUND_MS : RUN_BOUND_MS;
  const mocks: EmbeddedTarget[] = [];
  try {
    const entries: MatrixEntry[] = [];
    for (const id of rest) {
      const bucketSize = embeddedBucketFor(testsOfClause(clauseOf(id)));
      const mock = await startEmbeddedTarget({ faults: [id], bucketSize, signingKey: job.keyFile });
      mocks.push(mock);
      entries.push({
        id,
        clauses: [clauseOf(id)],
        settings: settingsFor(mock.target, 1000, numRuns, exhaustionCapFor(bucketSize), bound),
        stopAtFirstFailure: !job.everyTest,
      });
    }
    const clauses = new Set(rest.map(clauseOf));
    const filesOfClauses = files.filter((file) =>
      tests.some((t) => file.endsWith(t.file) && clauses.has(parseClauseTag(t.name)?.id ?? '')),
    );
    const matrixRunner =
      filesOfClauses.length === files.length ? runner : await SuiteRunner.create({ files: filesOfClauses, testTimeoutMs: bound });
    const base = settingsFor(entries[0]!.settings.target, 1000, numRuns, 0, bound);
    const run = await matrixRunner.run({ ...base, matrix: entries });
    if (matrixRunner !== runner) await matrixRunner.close();
    for (const entry of entries) say(formatLine({ fault: faultResult(entry, clauseOf(entry.id), entries, run) }));
  } finally {
    await Promise.all(mocks.map((m) => m.close()));
  }
}

/**
 * Each recorded fault's one test against its own mock, and every such test against one conformant
 * mock (the control). Returns the faults caught: their test failed against them and passed against
 * the control.
 */
async function runRecordedCatches(
  faults: string[],
  records: Record<string, string>,
  clauseOf: (id: string) => string,
  tests: PlannedTest[],
  files: string[],
  job: WorkerJob,
  numRuns: number,
): Promise<FaultResult[]> {
  if (faults.length === 0) return [];
  const titles = [...new Set(faults.map((id) => records[id]!))];
  const planned = (names: string[]) => tests.filter((t) => names.includes(t.name));
  const mocks: EmbeddedTarget[] = [];
  try {
    const entryFor = async (id: string, names: string[], faultIds: string[]): Promise<MatrixEntry> => {
      const bucketSize = embeddedBucketFor(planned(names));
      const mock = await startEmbeddedTarget({ faults: faultIds, bucketSize, signingKey: job.keyFile });
      mocks.push(mock);
      return { id, clauses: 'all', tests: names, settings: settingsFor(mock.target, 1000, numRuns, exhaustionCapFor(bucketSize)) };
    };
    const control = await entryFor(CONTROL, titles, []);
    const entries = [control];
    for (const id of faults) entries.push(await entryFor(id, [records[id]!], [id]));
    const filesOfTitles = files.filter((file) => planned(titles).some((t) => file.endsWith(t.file)));
    const runner = await SuiteRunner.create({ files: filesOfTitles, testTimeoutMs: RUN_BOUND_MS });
    const started = Date.now();
    let run: SuiteRun;
    try {
      run = await runner.run({ ...settingsFor(control.settings.target, 1000, numRuns, 0), matrix: entries });
    } finally {
      await runner.close();
    }
    if (run.unhandled.length > 0 || run.workerDied) return [];
    const cases = run.modules.flatMap((module) => [...module.children.allTests()]);
    const outcomeOf = (title: string, id: string) => cases.find((test) => test.name === title)?.meta().matrix?.[id];
    const ms = Math.round((Date.now() - started) / entries.length);
    return faults
      .filter((id) => outcomeOf(records[id]!, id)?.state === 'failed' && outcomeOf(records[id]!, CONTROL)?.state === 'passed')
      .map((id) => ({
        fault: id,
        clause: clauseOf(id),
        caught: true,
        caughtBy: records[id]!,
        byRecordedTest: true,
        tests: { passed: 0, failed: 1, skipped: 0, notRun: tests.filter((t) => parseClauseTag(t.name)?.id === clauseOf(id)).length - 1 },
        ms,
      }));
  } finally {
    await Promise.all(mocks.map((m) => m.close()));
  }
}

/** The control's matrix id in the recorded-catch run: no fault's id has a space. */
const CONTROL = 'conformant control';

/** What one fault came to: caught when a test citing its clause failed against it (a suite error catches nothing). */
function faultResult(entry: MatrixEntry, clause: string, entries: MatrixEntry[], run: SuiteRun): FaultResult {
  const cases = run.modules.flatMap((module) => [...module.children.allTests()]);
  // A test that ran against several faults of its clause shares its time between them.
  const sharers = Math.max(1, entries.filter((e) => e.clauses !== 'all' && e.clauses.includes(clause)).length);
  const outcomes = cases
    .filter((test) => parseClauseTag(test.name)?.id === clause)
    .map((test) => ({ name: test.name, outcome: test.meta().matrix?.[entry.id], ms: test.diagnostic()?.duration ?? 0 }));
  const failed = outcomes.filter((o) => o.outcome?.state === 'failed');
  const notRun = outcomes.filter((o) => o.outcome?.detail === NOT_RUN_AFTER_FAILURE).length;
  const problems = [...run.unhandled, ...(run.workerDied ? [run.workerDied.reason] : [])];
  const error =
    outcomes.length === 0
      ? `no test cites ${clause}`
      : problems.length > 0
        ? problems.join('; ')
        : failed.length === 0
          ? outcomes.map((o) => `${o.outcome?.state ?? 'did not run'}${o.outcome?.detail ? `: ${o.outcome.detail}` : ''}`).join(' | ')
          : undefined;
  return {
    fault: entry.id,
    clause,
    caught: failed.length > 0,
    ...(failed[0] ? { caughtBy: failed[0].name } : {}),
    tests: {
      passed: outcomes.filter((o) => o.outcome?.state === 'passed').length,
      failed: failed.length,
      skipped: outcomes.filter((o) => o.outcome?.state === 'skipped').length - notRun,
      notRun,
    },
    ms: Math.round(outcomes.reduce((sum, o) => sum + o.ms / sharers, 0)),
    ...(error !== undefined ? { error } : {}),
    ...(entry.stopAtFirstFailure === false
      ? { failedTests: failed.map((o) => o.name), passedTests: outcomes.filter((o) => o.outcome?.state === 'passed').map((o) => o.name) }
      : {}),
  };
}

/** The conformant runs: each a whole run against a fresh conformant mock, where nothing may fail or err. */
async function runConformant(job: WorkerJob, files: string[], runner: SuiteRunner, say: (line: string) => void): Promise<void> {
  if (job.seeds.length === 0) return;
  // The plan does not depend on the seed: one bucket size for every conformant run.
  const planned: PlannedTest[] = await planTests(files, settingsFor(await embeddedTargetForPlanning(), 0, DEFAULTS.embeddedNumRuns, 0));
  const bucketSize = embeddedBucketFor(planned);
  for (const seed of job.seeds) {
    const started = Date.now();
    const mock = await startEmbeddedTarget({ bucketSize, signingKey: job.keyFile });
    try {
      const run = await runner.run(settingsFor(mock.target, seed, DEFAULTS.embeddedNumRuns, exhaustionCapFor(bucketSize)));
      const { tests, unhandled } = testsOf(run.modules, true, projectRoot);
      const problems = [
        ...tests
          .filter((t) => t.state === 'failed' || t.state === 'error')
          .map((t) => `${t.state === 'error' ? 'suite error: ' : ''}${t.name}`),
        ...tests.filter((t) => !t.clause).map((t) => `untagged: ${t.name}`),
        ...run.unhandled,
        ...unhandled,
        ...(run.workerDied ? [run.workerDied.reason] : []),
      ];
      const result: ConformantResult = { seed, passed: problems.length === 0 && tests.length > 0, problems, ms: Date.now() - started };
      say(formatLine({ conformant: result }));
    } finally {
      await mock.close();
    }
  }
}
