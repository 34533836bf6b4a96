// Setup file of the suite under StrykerJS only: a test that skips itself fails. The suite skips a
// test when the target cannot serve it (the budget, the deadline, the target's rate limit, a
// shared request it could not get). Against the conformant mock no such test skips (the dry run
// fails otherwise, naming the test), so under a mutant a skip means the mutant changed what the
// mock does; Stryker counts only failures as kills. A test that does not apply to what the target
// chose where the contract lets it choose (a token request it may refuse, refused: no token to
// read) skips against the conformant mock too, and is let skip: what chose is judged by other tests.
import { beforeEach, type TestContext } from 'vitest';
import { parseSkipNote } from '../../harness/plan.ts';

beforeEach((context) => {
  // The harness skips through the test's own context (harness/conformance.ts).
  const skip = context.skip.bind(context);
  const skipAsFailure = (condition?: boolean | string, note?: string): void => {
    if (condition === false) return;
    if (typeof condition === 'string' && parseSkipNote(condition).category === 'not-applicable') return skip(condition);
    throw new Error(
      `the test skipped itself, which it never does against the conformant mock: ${typeof condition === 'string' ? condition : (note ?? '')}`,
    );
  };
  (context as { skip: TestContext['skip'] }).skip = skipAsFailure as TestContext['skip'];
});
