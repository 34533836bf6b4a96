// A skip decided while a test runs, from something the test builds on that the target did not
// give (an earlier result, a token that can be made into a wrong one): the test says nothing of
// its clause, so it is skipped with the reason, never failed (conformance.ts turns it into a skip).
import type { SkipCategory } from './plan.ts';

export class SkipRequest extends Error {
  readonly category: SkipCategory;
  constructor(category: SkipCategory, reason: string) {
    super(reason);
    this.name = 'SkipRequest';
    this.category = category;
  }
}

/** The skip an error is or wraps (fast-check wraps what a property throws), if any. */
export function skipIn(error: unknown): SkipRequest | undefined {
  for (let e = error, depth = 0; e !== undefined && e !== null && depth < 5; e = (e as { cause?: unknown }).cause, depth += 1) {
    if (e instanceof SkipRequest) return e;
  }
  return undefined;
}
