// Setup file of the suite under StrykerJS only: every covered mutant runs the whole suite.
//
// Stryker's vitest runner records, in the dry run, which test reached each mutant, and then runs
// only those tests against it, whatever `coverageAnalysis` says. Here that gives false survivors:
// a token, or a request several tests read, is fetched by whichever test needs it first, and the
// tests that read it later (every rate-limit header check, for one) never "reach" the mock. So the
// reach of every test is counted as the run's: the dry run's current test is cleared before each
// test body, and Stryker then counts each mutant reached as reached outside any test (a "static"
// mutant), which it runs against the whole suite, switched on from the start of the run.
import { beforeEach, inject } from 'vitest';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Provided by Stryker's vitest runner: the global its instrumented code counts coverage in. */
    globalNamespace?: string;
    mode?: 'dry-run' | 'mutant';
  }
}

const namespace = inject('globalNamespace');

if (namespace !== undefined && inject('mode') === 'dry-run') {
  // Runs after Stryker's own beforeEach, which names the test (hooks run in the order of their
  // setup files, and Stryker puts its own first).
  beforeEach(() => {
    const stryker = (globalThis as Record<string, { currentTestId?: string } | undefined>)[namespace];
    if (stryker) stryker.currentTestId = undefined;
  });
}
