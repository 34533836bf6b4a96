// The project's own tests (`npm test`): the contract data, the mock, the harness, the generators,
// the passive judge, the command line and the benchmarks' own logic. The conformance suites under suites/ have their own configuration and are
// run against a target by `npm start`.
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The files that take longest, longest first, as measured on the 2-core machine (2026-11-27, in
 * seconds: 78, 73, 57, 55, 39, 38, 37, 32, 21, 18, 17). They start first, so that the run does not
 * end with one of them alone on a worker. Without this, a fresh clone (no vitest cache) starts the
 * largest files first, and most of these are small files that wait on the runs they start. A file
 * missing here only runs later; a name that matches no file is caught by the project's own test.
 */
export const SLOWEST_FILES = [
  'cli/test/conformance-run.test.ts',
  'cli/test/real-tenant-limits.test.ts',
  'cli/test/odd-targets-bounds.test.ts',
  'cli/test/conformance-run-failures.test.ts',
  'cli/test/rate-limit-headers.test.ts',
  'cli/test/small-bucket.test.ts',
  'cli/test/package.test.ts',
  'cli/test/real-tenant.test.ts',
  'cli/test/check-traffic.test.ts',
  'mock/test/cli.test.ts',
  'cli/test/confirmation.test.ts',
  'cli/test/token-budget.test.ts',
];

/** vitest's order (cached durations, else size), with the slowest files of SLOWEST_FILES first. */
class SlowestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (file: TestSpecification) => {
      const index = SLOWEST_FILES.findIndex((name) => file.moduleId.endsWith(`/${name}`));
      return index === -1 ? SLOWEST_FILES.length : index;
    };
    const sorted = await super.sort(files);
    return sorted
      .map((file, order) => ({ file, order }))
      .sort((a, b) => rank(a.file) - rank(b.file) || a.order - b.order)
      .map(({ file }) => file);
  }
}

export default defineConfig({
  test: {
    include: ['{specs,mock,harness,generators,traffic,cli,bench}/test/**/*.test.ts'],
    expect: { requireAssertions: true },
    // Three files at a time, whatever the core count (vitest's default leaves a 2-core machine one):
    // the end-to-end files spend most of their time waiting on the runs they start, many of them
    // paced by a rate limit. On 2 cores: 345 s with three, about 395 s with two; beside a busy
    // loop on one core, three still passed every test (432 s).
    maxWorkers: 3,
    // A worker keeps the modules it loaded from one file to the next: specs/ (the OpenAPI document,
    // the registry, the compiled schemas, the matrix) is loaded once per worker instead of once per
    // file (about a sixth of the run's time here). No test mocks modules or changes the process's
    // environment; two runs with the files shuffled (--sequence.shuffle.files) passed whole.
    isolate: false,
    sequence: { sequencer: SlowestFirst },
    testTimeout: 20_000,
    hookTimeout: 20_000,
  },
});
