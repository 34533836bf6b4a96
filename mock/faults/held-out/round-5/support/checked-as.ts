// A body check that validates a view of the value instead of the value itself, as a hand-written
// check that skips part of what it is given does: the compiled check decides on `view(value)` and
// reports its errors as its own.
import type { ValidateFunction } from 'ajv';

export function checkedAs(validate: ValidateFunction, view: (value: unknown) => unknown): ValidateFunction {
  const check = (value: unknown): boolean => validate(view(value));
  Object.defineProperty(check, 'errors', { get: () => validate.errors });
  return check as unknown as ValidateFunction;
}
