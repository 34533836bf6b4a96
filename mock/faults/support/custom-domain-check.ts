// The check of the tenant-custom-domain header with other length bounds than the spec's, keeping
// the mock's host-name rule (validators.ts), so the length is all a fault changes.
import type { ValidateFunction } from 'ajv';
import { HOST_NAME_PATTERN } from '../../validators.ts';
import type { FaultHooks } from '../../app.ts';
import { compileCheck, replaceParameterCheck } from './check-edits.ts';

export const CUSTOM_DOMAIN_HEADER = 'tenant-custom-domain';

export function customDomainLengthCheck(app: FaultHooks, bounds: { min: number; max: number }): void {
  const check: ValidateFunction = compileCheck({
    allOf: [
      { type: 'string', minLength: bounds.min, maxLength: bounds.max },
      { type: 'string', pattern: HOST_NAME_PATTERN },
    ],
  });
  replaceParameterCheck(app, 'sso-ticket', 'headers', CUSTOM_DOMAIN_HEADER, () => check);
}
