// One worker of the mutation gate (cli/mutation.ts): vitest started once; one mock per fault,
// each sized to the plan of its clause's tests; every fault's tests in one matrix run; then the
// conformant runs, each a whole run against a fresh conformant mock. Results are printed as
// "FAULT {json}" and "CONFORMANT {json}" lines for the parent.
import { randomUUID } from 'node:crypto';
import { parseClauseTag } from '../specs/index.ts';
import type { MatrixEntry, RunSettings } from '../harness/runner.ts';
import { embeddedBucketFor, embeddedTargetForPlanning, exhaustionCapFor, startEmbeddedTarget, type EmbeddedTarget } from './embedded.ts';
import type { ConformantResult, FaultResult } from './mutation.ts';
import { DEFAULTS } from './options.ts';
import { projectRoot } from './paths.ts';
import { planTests, suiteFiles } from './planner.ts';
import { testsOf } from './reporters/results.ts';
import { SuiteRunner } from './suite-runner.ts';

interface WorkerJob {
  faults: string[];
  seeds: number[];
  keyFile: string;
}

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
  const { faultCatalogue } = await import('../mock/faults/catalogue.ts');
  const files = suiteFiles();
  const runner = await SuiteRunner.create({ files, testTimeoutMs: RUN_BOUND_MS });
  const mocks: EmbeddedTarget[] = [];
  try {
    if (job.faults.length > 0) {
      const planning = settingsFor(await embeddedTargetForPlanning(), 1000, faultNumRuns, 0);
      const tests = await planTests(files, planning);
      const entries: MatrixEntry[] = [];
      const clauseOfFault = new Map<string, string>();
      for (const id of job.faults) {
        const fault = faultCatalogue.find((f) => f.id === id)!;
        clauseOfFault.set(id, fault.clause);
        const own = tests.filter((t) => parseClauseTag(t.name)?.id === fault.clause);
        const bucketSize = embeddedBucketFor(own);
        const mock = await startEmbeddedTarget({ faults: [id], bucketSize, signingKey: job.keyFile });
        mocks.push(mock);
        entries.push({ id, clauses: [fault.clause], settings: settingsFor(mock.target, 1000, faultNumRuns, exhaustionCapFor(bucketSize)) });
      }
      const clauses = new Set(clauseOfFault.values());
      const filesOfClauses = files.filter((file) =>
        tests.some((t) => file.endsWith(t.file) && clauses.has(parseClauseTag(t.name)?.id ?? '')),
      );
      const matrixRunner =
        filesOfClauses.length === files.length ? runner : await SuiteRunner.create({ files: filesOfClauses, testTimeoutMs: RUN_BOUND_MS });
      const base = settingsFor(entries[0]!.settings.target, 1000, faultNumRuns, 0);
      const { modules, unhandled } = await matrixRunner.run({ ...base, matrix: entries });
      if (matrixRunner !== runner) await matrixRunner.close();
      const cases = modules.flatMap((module) => [...module.children.allTests()]);
      // A test that ran against several faults of its clause shares its time between them.
      const faultsOfClause = (clause: string) => entries.filter((e) => e.clauses !== 'all' && e.clauses.includes(clause)).length;
      for (const entry of entries) {
        const clause = clauseOfFault.get(entry.id)!;
        const sharers = Math.max(1, faultsOfClause(clause));
        const mine = cases.filter((test) => parseClauseTag(test.name)?.id === clause);
        const outcomes = mine.map((test) => ({
          name: test.name,
          outcome: test.meta().matrix?.[entry.id],
          ms: test.diagnostic()?.duration ?? 0,
        }));
        const failed = outcomes.filter((o) => o.outcome?.state === 'failed');
        const result: FaultResult = {
          fault: entry.id,
          clause,
          caught: failed.length > 0,
          ...(failed[0] ? { caughtBy: failed[0].name } : {}),
          tests: {
            passed: outcomes.filter((o) => o.outcome?.state === 'passed').length,
            failed: failed.length,
            skipped: outcomes.filter((o) => o.outcome?.state === 'skipped').length,
          },
          ms: Math.round(outcomes.reduce((sum, o) => sum + o.ms / sharers, 0)),
          ...(mine.length === 0
            ? { error: `no test cites ${clause}` }
            : unhandled.length > 0
              ? { error: unhandled.join('; ') }
              : failed.length === 0
                ? {
                    error: outcomes
                      .map((o) => `${o.outcome?.state ?? 'did not run'}${o.outcome?.detail ? `: ${o.outcome.detail}` : ''}`)
                      .join(' | '),
                  }
                : {}),
        };
        say(`FAULT ${JSON.stringify(result)}`);
      }
    }
    // The plan does not depend on the seed: one bucket size for every conformant run.
    const conformantBucket =
      job.seeds.length > 0
        ? embeddedBucketFor(await planTests(files, settingsFor(await embeddedTargetForPlanning(), 0, DEFAULTS.embeddedNumRuns, 0)))
        : 0;
    for (const seed of job.seeds) {
      const started = Date.now();
      const bucketSize = conformantBucket;
      const mock = await startEmbeddedTarget({ bucketSize, signingKey: job.keyFile });
      try {
        const { modules, unhandled } = await runner.run(
          settingsFor(mock.target, seed, DEFAULTS.embeddedNumRuns, exhaustionCapFor(bucketSize)),
        );
        const { tests, unhandled: moduleErrors } = testsOf(modules, true, projectRoot);
        const problems = [
          ...tests.filter((t) => t.state === 'failed').map((t) => t.name),
          ...tests.filter((t) => !t.clause).map((t) => `untagged: ${t.name}`),
          ...unhandled,
          ...moduleErrors,
        ];
        const result: ConformantResult = { seed, passed: problems.length === 0 && tests.length > 0, problems, ms: Date.now() - started };
        say(`CONFORMANT ${JSON.stringify(result)}`);
      } finally {
        await mock.close();
      }
    }
  } finally {
    await Promise.all(mocks.map((m) => m.close()));
    await runner.close();
  }
}
