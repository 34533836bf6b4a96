// Stage 3: are the inputs well formed, in the order path parameters, headers, body. Checks are the
// observed-level schemas of specs/ (see validators.ts); messages follow the real service's form,
// "Path validation error: '<problem>' on property <name>".
import type { OperationKey } from '../../specs/index.ts';
import type { Components } from '../components.ts';
import type { Exchange } from '../exchange.ts';
import { refuse } from '../refusal.ts';
import { checksOf } from '../validators.ts';
import type { RequestBody } from './request-body.ts';
import { validationProblem } from './validation-messages.ts';

/** The decoded path parameters, each valid; else 400 invalid_uri naming the first bad one. */
export function validatePath(deps: Components, key: OperationKey, params: Exchange['params']): Record<string, string> {
  const decoded: Record<string, string> = {};
  for (const { name, validate } of checksOf(deps.validators, key).path) {
    const value = decodeSegment(params[name] ?? '');
    if (value === undefined) refuse(deps, 'invalid_uri', `'Invalid percent-encoding' on property ${name}`);
    if (!validate(value)) refuse(deps, 'invalid_uri', `'${validationProblem(validate.errors, value).text}' on property ${name}`);
    decoded[name] = value;
  }
  return decoded;
}

/**
 * The operation's header parameters that are present, each valid (else 400 invalid_headers),
 * keyed by the spec's name even when sent under an alias.
 */
export function validateHeaders(deps: Components, key: OperationKey, headers: Exchange['headers']): Record<string, string> {
  const present: Record<string, string> = {};
  for (const { name, validate, aliases = [] } of checksOf(deps.validators, key).headers) {
    const sentAs = [name, ...aliases].find((candidate) => headers[candidate] !== undefined);
    if (sentAs === undefined) continue;
    const raw = headers[sentAs]!;
    const value = Array.isArray(raw) ? raw.join(', ') : raw;
    if (!validate(value)) refuse(deps, 'invalid_headers', `'${validationProblem(validate.errors, value).text}' on header ${sentAs}`);
    present[name] = value;
  }
  return present;
}

/** The body, valid against the operation's body schema (its form variant for a form body); else 400 invalid_body. */
export function validateBody(deps: Components, key: OperationKey, body: RequestBody): unknown {
  const checks = checksOf(deps.validators, key);
  const validate = body.encoding === 'form' ? (checks.formBody ?? checks.body) : checks.body;
  if (validate && !validate(body.value)) {
    const problem = validationProblem(validate.errors, body.value);
    refuse(deps, 'invalid_body', `'${problem.text}'${problem.path ? ` on property ${problem.path}` : ''}`);
  }
  return body.value;
}

function decodeSegment(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}
