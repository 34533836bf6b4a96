// The compiled checks of each operation's inputs, at the observed level of specs/: the contract's
// bounds plus the real service's identifier shapes and unknown-property refusal. One component,
// so that a fault can swap a single check (say, a laxer path id) without touching a route.
import type { ValidateFunction } from 'ajv';
import { compileNode, createAjv, operations, schema, schemaAt, validator, type JsonObject, type OperationKey } from '../specs/index.ts';

export interface NamedCheck {
  name: string;
  validate: ValidateFunction;
  /** Other names the same header arrives under; the spec's name wins when both are sent. */
  aliases?: string[];
}

export interface OperationValidators {
  /** Path parameters, in template order. */
  path: NamedCheck[];
  /** Header parameters other than Authorization (the verifier reads that one). */
  headers: NamedCheck[];
  body?: ValidateFunction;
  /**
   * The same body rules for a form-encoded body: fields arrive as strings (or lists of strings)
   * and are converted, in place, to the schema's scalar types first ("3600" becomes 3600, a single
   * value of a list field a list of one).
   */
  formBody?: ValidateFunction;
}

export interface Validators {
  operations: Record<OperationKey, OperationValidators>;
  /** The ttl_sec a ticket gets when the request omits it or sends 0. */
  ttlSecDefault: number;
}

/**
 * The mock's own rule on top of the 3..255 bounds: the custom domain becomes the host of the
 * ticket URL, so it must look like a host name (letters, digits, inner hyphens, dot-separated
 * labels). Label lengths are not limited, so every length the spec allows stays possible.
 */
export const HOST_NAME_PATTERN = '^[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*$';
const HOST_NAME_HEADERS = new Set(['tenant-custom-domain']);

/**
 * The real service names the custom-domain header auth0-custom-domain (observed reference, "SSO
 * ticket request details"); accepting it too lets the official SDKs work against the mock unchanged.
 */
const HEADER_ALIASES: Record<string, string[]> = { 'tenant-custom-domain': ['auth0-custom-domain'] };

let compiled: Validators | undefined;

/** Fresh objects around checks compiled once: a fault that swaps a check affects one server only. */
export function createValidators(): Validators {
  compiled ??= compileValidators();
  const operations = Object.fromEntries(
    Object.entries(compiled.operations).map(([key, checks]) => [
      key,
      {
        path: checks.path.map((c) => ({ ...c })),
        headers: checks.headers.map((c) => ({ ...c, ...(c.aliases ? { aliases: [...c.aliases] } : {}) })),
        ...(checks.body ? { body: checks.body } : {}),
        ...(checks.formBody ? { formBody: checks.formBody } : {}),
      },
    ]),
  ) as Record<OperationKey, OperationValidators>;
  return { operations, ttlSecDefault: compiled.ttlSecDefault };
}

/**
 * The check of a form-encoded body against a body schema: an ajv of its own that converts the
 * fields to the schema's scalar types first (see formBody). `strictTypes: false` is for a schema
 * edited on purpose (the faults' editBodySchema), as createAjv explains.
 */
export function compileFormBody(bodySchema: JsonObject, options: { strictTypes?: boolean } = {}): ValidateFunction {
  return createAjv({ coerceTypes: 'array', ...options }).compile(bodySchema);
}

function compileValidators(): Validators {
  const byOperation = Object.fromEntries(
    operations.map((op) => {
      const checks: OperationValidators = {
        path: op.parameters.filter((p) => p.in === 'path').map((p) => ({ name: p.name, validate: compileNode(p.schema, 'observed') })),
        headers: op.parameters
          .filter((p) => p.in === 'header' && p.name.toLowerCase() !== 'authorization')
          .map((p) => ({
            name: p.name.toLowerCase(),
            validate: compileNode(
              HOST_NAME_HEADERS.has(p.name.toLowerCase())
                ? { allOf: [p.schema, { type: 'string', pattern: HOST_NAME_PATTERN }] }
                : p.schema,
              'observed',
            ),
            ...(HEADER_ALIASES[p.name.toLowerCase()] ? { aliases: HEADER_ALIASES[p.name.toLowerCase()] } : {}),
          })),
      };
      if (op.requestBodyRef) {
        const name = op.requestBodyRef.split('/').pop()!;
        checks.body = validator(name, 'observed');
        checks.formBody = compileFormBody(schema(name, 'observed'));
      }
      return [op.key, checks];
    }),
  ) as Record<OperationKey, OperationValidators>;
  const ttlSecDefault = schemaAt({ operation: 'sso-ticket', in: 'body', property: 'ttl_sec' })['x-default-when-omitted-or-zero'];
  if (typeof ttlSecDefault !== 'number') throw new Error('openapi.yaml gives no x-default-when-omitted-or-zero for ttl_sec');
  return { operations: byOperation, ttlSecDefault };
}
