// What a test's error says, for the three kinds of outcome: the target misbehaving on a request
// fails the test; a skip (even wrapped by fast-check) skips it; anything else is the suite's own
// error. And a token the target issued that is not a JWT skips the tests built on it.
import { describe, expect, it } from 'vitest';
import { HarnessError, isTargetError } from '../errors.ts';
import { withAlgNone, withTamperedPayload } from '../forge.ts';
import { SkipRequest, skipIn } from '../skip.ts';

/** An error as fast-check throws it: the property's own error as its cause. */
const wrapped = (cause: unknown) => new Error('Property failed after 1 tests', { cause });

describe('isTargetError', () => {
  it('is true for a target that hung, reset or answered garbage, wrapped or not', () => {
    expect(isTargetError(new HarnessError('TARGET_TIMEOUT', 'no answer'))).toBe(true);
    expect(isTargetError(wrapped(new HarnessError('TARGET_GARBAGE', 'not HTTP')))).toBe(true);
  });

  it("is false for the suite's own errors: a plan broken, a bug", () => {
    expect(isTargetError(new HarnessError('PLAN_VIOLATION', 'suite bug'))).toBe(false);
    expect(isTargetError(new TypeError('x is undefined'))).toBe(false);
    expect(isTargetError(wrapped(new RangeError('Maximum call stack size exceeded')))).toBe(false);
  });
});

describe('skipIn', () => {
  it('finds a skip where fast-check wrapped it', () => {
    const skip = new SkipRequest('depends', 'no 429 to read');
    expect(skipIn(skip)).toBe(skip);
    expect(skipIn(wrapped(skip))).toBe(skip);
    expect(skipIn(new Error('x'))).toBeUndefined();
  });
});

describe('tokens made from a token that is not a JWT', () => {
  it('are a skip for the test that needs them, not an error', () => {
    for (const make of [withTamperedPayload, withAlgNone]) {
      const error = (() => {
        try {
          make('an-opaque-token');
          return undefined;
        } catch (e) {
          return e;
        }
      })();
      expect(error).toBeInstanceOf(SkipRequest);
      expect((error as SkipRequest).category).toBe('depends');
      expect((error as SkipRequest).message).toBe(
        "the target's access token is not a JWT, so no token wrong in one way can be made from it",
      );
    }
  });
});
