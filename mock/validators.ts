// The compiled checks of each operation's inputs, at the observed level of specs/: the contract's
// bounds plus the real service's identifier shapes and unknown-property refusal. One component,
// so that a fault can swap a single check (say, a laxer path id) without touching a route.
import type { ValidateFunction } from 'ajv';
import type { OperationCard } from '../specs/cards/card.ts';
import {
  compileNode,
  createAjv,
  HOST_NAME_PATTERN,
  schema,
  schemaAt,
  validator,
  type JsonObject,
  type OperationSpec,
} from '../specs/index.ts';

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
  /** By operation key: the checks each operation's card (its OpenAPI operation) implies. */
  operations: Record<string, OperationValidators>;
  /** The ttl_sec a ticket gets when the request omits it or sends 0. */
  ttlSecDefault: number;
}

/**
 * The mock's own rule on top of the 3..255 bounds: the custom domain becomes the host of the
 * ticket URL, so it must look like a host name (HOST_NAME_PATTERN, specs/limits.ts; re-exported for
 * the faults). Label lengths are not limited, so every length the spec allows stays possible.
 */
export { HOST_NAME_PATTERN };
const HOST_NAME_HEADERS = new Set(['tenant-custom-domain']);

/**
 * The real service names the custom-domain header auth0-custom-domain (observed reference, "SSO
 * ticket request details"); accepting it too lets the official SDKs work against the mock unchanged.
 */
const HEADER_ALIASES: Record<string, string[]> = { 'tenant-custom-domain': ['auth0-custom-domain'] };

/** The checks of one operation the mock serves. */
export function checksOf(validators: Validators, key: string): OperationValidators {
  const checks = validators.operations[key];
  if (!checks) throw new Error(`the mock serves no operation ${key}`);
  return checks;
}

/** Checks compiled once per operation spec (the mock's servers of a process share them). */
const compiled = new WeakMap<OperationSpec, OperationValidators>();

/** Fresh objects around checks compiled once: a fault that swaps a check affects one server only. */
export function createValidators(cards: readonly OperationCard[]): Validators {
  const operations = Object.fromEntries(
    cards
      .map((card) => {
        if (!compiled.has(card.spec)) compiled.set(card.spec, compileOperation(card.spec));
        return [card.key, compiled.get(card.spec)!] as const;
      })
      .map(([key, checks]) => [
        key,
        {
          path: checks.path.map((c) => ({ ...c })),
          headers: checks.headers.map((c) => ({ ...c, ...(c.aliases ? { aliases: [...c.aliases] } : {}) })),
          ...(checks.body ? { body: checks.body } : {}),
          ...(checks.formBody ? { formBody: checks.formBody } : {}),
        },
      ]),
  );
  return { operations, ttlSecDefault: ttlSecDefault() };
}

/**
 * The check of a form-encoded body against a body schema: an ajv of its own that converts the
 * fields to the schema's scalar types first (see formBody). `strictTypes: false` is for a schema
 * edited on purpose (the faults' editBodySchema), as createAjv explains.
 */
export function compileFormBody(bodySchema: JsonObject, options: { strictTypes?: boolean } = {}): ValidateFunction {
  return createAjv({ coerceTypes: 'array', ...options }).compile(bodySchema);
}

function compileOperation(op: OperationSpec): OperationValidators {
  const checks: OperationValidators = {
    path: op.parameters.filter((p) => p.in === 'path').map((p) => ({ name: p.name, validate: compileNode(p.schema, 'observed') })),
    headers: op.parameters
      .filter((p) => p.in === 'header' && p.name.toLowerCase() !== 'authorization')
      .map((p) => ({
        name: p.name.toLowerCase(),
        validate: compileNode(
          HOST_NAME_HEADERS.has(p.name.toLowerCase()) ? { allOf: [p.schema, { type: 'string', pattern: HOST_NAME_PATTERN }] } : p.schema,
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
  return checks;
}

/** The ttl_sec of a ticket whose request omits it or sends 0 (the spec's default). */
function ttlSecDefault(): number {
  const value = schemaAt({ operation: 'sso-ticket', in: 'body', property: 'ttl_sec' })['x-default-when-omitted-or-zero'];
  if (typeof value !== 'number') throw new Error('openapi.yaml gives no x-default-when-omitted-or-zero for ttl_sec');
  return value;
}
