// The project's own tests (`npm test`): the contract data, the mock, the harness, the generators,
// the passive judge, the command line and the benchmarks' own logic. The conformance suites under suites/ have their own configuration and are
// run against a target by `npm start`.
import { defineConfig } from 'vitest/config';

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
    testTimeout: 20_000,
    hookTimeout: 20_000,
  },
});
