// The conformance suites as StrykerJS's tests (bench/stryker/stryker.config.mjs): the suite's own
// configuration (harness/suite/vitest.config.ts: one worker, modules shared between files, the fixed
// file order) with the mock started inside the test worker, where the mutants are switched on
// (in-worker-mock.ts), each run's settings provided by this process (run-provider.ts) instead of
// by `npm start`, every covered mutant run against the whole suite (whole-suite-coverage.ts), and
// a test that skips itself counted as a failure (skip-fails.ts).
import { fileURLToPath } from 'node:url';
import { defineConfig, mergeConfig } from 'vitest/config';
import suiteConfig from '../../harness/suite/vitest.config.ts';

const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));

export default mergeConfig(
  suiteConfig,
  defineConfig({
    test: {
      setupFiles: [here('./whole-suite-coverage.ts'), here('./in-worker-mock.ts'), here('./skip-fails.ts')],
      reporters: [here('./run-provider.ts')],
    },
  }),
);
