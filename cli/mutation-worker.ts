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
import { planTests, suiteFiles } from './planner.ts';
import { testsOf } from './reporters/results.ts';
import { SuiteRunner, type PlannedTest, type SuiteRun } from './suite-runner.ts';

const RUN_BOUND_MS = 300_000;

function settingsFor(target: RunSettings['target'], seed: number, numRuns: number, exhaustionMax: number): RunSettings {
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
    deadline: Date.now() + RUN_BOUND_MS,
    filter: {},
  };
}

export async function runWorker(job: WorkerJob, say: (line: string) => void, faultNumRuns: number): Promise<void> {
  const files = suiteFiles();
  const runner = await SuiteRunner.create({ files, testTimeoutMs: RUN_BOUND_MS });
  try {
    if (job.faults.length > 0) await runFaults(job, files, runner, say, faultNumRuns);
    await runConformant(job, files, runner, say);
  } finally {
    await runner.close();
  }
}

/** Every fault's tests in one matrix run, each against its own mock, sized to the plan of its clause's tests. */
async function runFaults(
  job: WorkerJob,
  files: string[],
  runner: SuiteRunner,
  say: (line: string) => void,
  numRuns: number,
): Promise<void> {
  const { faultCatalogue } = await import('../mock/faults/catalogue.ts');
  const tests = await planTests(files, settingsFor(await embeddedTargetForPlanning(), 1000, numRuns, 0));
  const mocks: EmbeddedTarget[] = [];
  try {
    const entries: MatrixEntry[] = [];
    const clauseOfFault = new Map<string, string>();
    for (const id of job.faults) {
      const fault = faultCatalogue.find((f) => f.id === id)!;
      clauseOfFault.set(id, fault.clause);
      const bucketSize = embeddedBucketFor(tests.filter((t) => parseClauseTag(t.name)?.id === fault.clause));
      const mock = await startEmbeddedTarget({ faults: [id], bucketSize, signingKey: job.keyFile });
      mocks.push(mock);
      entries.push({
        id,
        clauses: [fault.clause],
        settings: settingsFor(mock.target, 1000, numRuns, exhaustionCapFor(bucketSize)),
        stopAtFirstFailure: !job.everyTest,
      });
    }
    const clauses = new Set(clauseOfFault.values());
    const filesOfClauses = files.filter((file) =>
      tests.some((t) => file.endsWith(t.file) && clauses.has(parseClauseTag(t.name)?.id ?? '')),
    );
    const matrixRunner =
      filesOfClauses.length === files.length ? runner : await SuiteRunner.create({ files: filesOfClauses, testTimeoutMs: RUN_BOUND_MS });
    const base = settingsFor(entries[0]!.settings.target, 1000, numRuns, 0);
    const run = await matrixRunner.run({ ...base, matrix: entries });
    if (matrixRunner !== runner) await matrixRunner.close();
    for (const entry of entries) say(formatLine({ fault: faultResult(entry, clauseOfFault.get(entry.id)!, entries, run) }));
  } finally {
    await Promise.all(mocks.map((m) => m.close()));
  }
}

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
