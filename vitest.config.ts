// The project's own tests (`npm test`): the contract data, the mock, the harness, the generators,
// the passive judge, the command line and the benchmarks' own logic. The conformance suites under suites/ have their own configuration and are
// run against a target by `npm start`.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['{specs,mock,harness,generators,traffic,cli,bench}/test/**/*.test.ts'],
    expect: { requireAssertions: true },
    // Two files at a time, whatever the core count (vitest's default leaves a 2-core machine one):
    // most of the time of the end-to-end files is spent waiting on the runs they start.
    maxWorkers: 2,
    testTimeout: 20_000,
    hookTimeout: 20_000,
  },
});
