// The conformance suites, run by `npm start` (cli/conformance.ts) against one target. Tests run
// one at a time in one worker that keeps its modules between files: the request budget, the
// pacing state and the token cache then span the whole run, and no two tests race for the
// target's rate limit.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  root: fileURLToPath(new URL('..', import.meta.url)),
  test: {
    include: ['suites/**/*.test.ts'],
    setupFiles: ['harness/setup.ts'],
    pool: 'threads',
    maxWorkers: 1,
    fileParallelism: false,
    isolate: false,
    sequence: { shuffle: false, concurrent: false },
    expect: { requireAssertions: true },
    testTimeout: 120_000,
    hookTimeout: 60_000,
    teardownTimeout: 10_000,
  },
});
