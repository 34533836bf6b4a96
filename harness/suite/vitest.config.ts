// The conformance suites, run by `npm start` (cli/conformance.ts) against one target. Tests run
// one at a time in one worker that keeps its modules between files: the request budget, the
// pacing state, the token cache and the shared requests then span the whole run, and no two tests
// race for the target's rate limit. Files run in a fixed order (harness/suite/sequencer.ts).
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import SuiteSequencer from './sequencer.ts';

export default defineConfig({
  root: fileURLToPath(new URL('../..', import.meta.url)),
  test: {
    include: ['suites/**/*.test.ts'],
    setupFiles: ['harness/setup.ts'],
    pool: 'threads',
    maxWorkers: 1,
    fileParallelism: false,
    isolate: false,
    includeTaskLocation: true,
    sequence: { shuffle: false, concurrent: false, sequencer: SuiteSequencer },
    expect: { requireAssertions: true },
    testTimeout: 600_000,
    hookTimeout: 60_000,
    teardownTimeout: 10_000,
  },
});
