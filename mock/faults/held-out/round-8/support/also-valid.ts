// A check that also passes the values a slip vouches for, as a hand-written rule in front of the
// compiled one does: `accepts(value)` true lets the value through whatever the compiled check says;
// anything else is decided, and its errors reported, by the compiled check.
import type { ValidateFunction } from 'ajv';

export function alsoValid(validate: ValidateFunction, accepts: (value: unknown) => boolean): ValidateFunction {
  let passed = false;
  const check = (value: unknown): boolean => {
    passed = accepts(value);
    return passed || validate(value);
  };
  Object.defineProperty(check, 'errors', { get: () => (passed ? null : validate.errors) });
  return check as unknown as ValidateFunction;
}
