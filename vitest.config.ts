// The project's own tests (`npm test`): the contract data, the mock, the harness, the generators,
// the passive judge, the command line and the benchmarks' own logic. The conformance suites under suites/ have their own configuration and are
// run against a target by `npm start`.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['{specs,mock,harness,generators,traffic,cli,bench}/test/**/*.test.ts'],
    expect: { requireAssertions: true },
    testTimeout: 20_000,
    hookTimeout: 20_000,
  },
});
