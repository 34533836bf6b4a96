// A body check with one rule of its own in front of the compiled one, as a hand-written check
// added beside a schema is: when the rule finds a problem, the check fails with an ajv error of
// the rule's making (so the validate stage words it as it words any other); otherwise the compiled
// check decides.
import type { ErrorObject, ValidateFunction } from 'ajv';

/** `rule` returns the error to report, or undefined when the value passes it. */
export function withRule(validate: ValidateFunction, rule: (value: unknown) => ErrorObject | undefined): ValidateFunction {
  let errors: ErrorObject[] | null | undefined = null;
  const check = (value: unknown): boolean => {
    const problem = rule(value);
    if (problem) {
      errors = [problem];
      return false;
    }
    const valid = validate(value);
    errors = validate.errors;
    return valid;
  };
  Object.defineProperty(check, 'errors', { get: () => errors });
  return check as unknown as ValidateFunction;
}
