// Swapping the check of one header of an operation, keeping the other names it arrives under (the
// gate's replaceParameterCheck keeps the name only).
import type { ValidateFunction } from 'ajv';
import type { OperationKey } from '../../../../../specs/index.ts';
import type { FaultHooks } from '../../../../app.ts';
import { checksOf } from '../../../../validators.ts';

export function editHeaderCheck(
  app: FaultHooks,
  key: OperationKey,
  name: string,
  make: (current: ValidateFunction) => ValidateFunction,
): void {
  app.override('validators', (validators) => {
    const checks = checksOf(validators, key).headers;
    const index = checks.findIndex((check) => check.name === name);
    if (index < 0) throw new Error(`operation ${key} has no header check named ${name}`);
    checks[index] = { ...checks[index]!, validate: make(checks[index]!.validate) };
    return validators;
  });
}
