// StrykerJS over the mock's decision logic, with the conformance suites as the tests. Run it with
// `npm run mutation:stryker` (bench/stryker/run.ts), which narrows `mutate` to a scope and prints
// the figures; `npx stryker run bench/stryker/stryker.config.mjs` runs the default scope as is.
// See docs/mutation-testing.md.
export default {
  testRunner: 'vitest',
  plugins: ['@stryker-mutator/vitest-runner'],
  vitest: {
    configFile: 'bench/stryker/vitest.config.ts',
    // The suites never import the mock (they talk HTTP to it): "related" test files would be none.
    related: false,
  },
  // Every covered mutant runs the whole suite: tokens and shared requests are fetched once per
  // run by whichever test needs them first, so per-test coverage would run too few tests.
  coverageAnalysis: 'all',
  // The decision logic: authentication, the routes, the request stages, validation, the limiter.
  mutate: ['mock/auth/**/*.ts', 'mock/routes/**/*.ts', 'mock/stages/**/*.ts', 'mock/validators.ts', 'mock/rate-limiter.ts'],
  // One test runner on a 2-core machine shared with others; raise it with --concurrency.
  concurrency: 1,
  tempDirName: 'reports/stryker/sandbox',
  // A run cut short leaves no copy of the project behind either.
  cleanTempDir: 'always',
  ignorePatterns: ['/reports', '/.keys', '/coverage'],
  reporters: ['json', 'html', 'progress-append-only'],
  jsonReporter: { fileName: 'reports/stryker/mutation.json' },
  htmlReporter: { fileName: 'reports/stryker/mutation.html' },
  // A mutant counts as timed out (detected) only well past the dry run's time: on a busy shared
  // machine a conformant run can take twice as long, and a false timeout would be a false kill.
  timeoutFactor: 2,
  timeoutMS: 10_000,
  // A benchmark, not a gate (the hand-written fault catalogue is the gate): no break threshold.
  thresholds: { high: 90, low: 60, break: null },
};
