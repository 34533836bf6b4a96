// JSON Schemas (draft 2020-12) taken from openapi.yaml, at the contract or the observed level.
//
// An OpenAPI 3.1 schema object is a JSON Schema plus extension keywords. To get the contract
// schema we inline $refs and drop every `x-` keyword; for the observed schema we first merge each
// node's `x-observed` block over it. Nothing here is a hand copy: change openapi.yaml and the
// schemas follow.
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { type JsonObject, resolvePointer } from './openapi.ts';

export type Level = 'contract' | 'observed';

const SCHEMA_MAP_KEYWORDS = new Set(['properties', 'patternProperties', '$defs', 'dependentSchemas']);
const SCHEMA_KEYWORDS = new Set(['items', 'additionalProperties', 'not', 'contains', 'propertyNames', 'if', 'then', 'else', 'unevaluatedProperties', 'unevaluatedItems']);
const SCHEMA_LIST_KEYWORDS = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems']);
/** OpenAPI keywords that are not JSON Schema; ajv's strict mode would refuse them. */
const OPENAPI_ONLY_KEYWORDS = new Set(['example', 'discriminator', 'xml', 'externalDocs']);

/** Turns an OpenAPI schema object into a self-contained JSON Schema at the given level. */
export function toJsonSchema(node: unknown, level: Level): JsonObject {
  return convert(node, level) as JsonObject;
}

function convert(node: unknown, level: Level): unknown {
  if (typeof node === 'boolean') return node;
  if (node === null || typeof node !== 'object' || Array.isArray(node)) {
    throw new Error(`not a schema: ${JSON.stringify(node)}`);
  }
  let source = node as JsonObject;
  if (typeof source.$ref === 'string') {
    const { $ref, ...siblings } = source;
    source = { ...(resolvePointer($ref as string) as JsonObject), ...siblings };
  }
  if (level === 'observed' && source['x-observed']) {
    source = { ...source, ...(source['x-observed'] as JsonObject) };
  }
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(source)) {
    if (key.startsWith('x-') || OPENAPI_ONLY_KEYWORDS.has(key)) continue;
    if (SCHEMA_MAP_KEYWORDS.has(key)) {
      out[key] = Object.fromEntries(
        Object.entries(value as JsonObject).map(([name, sub]) => [name, convert(sub, level)]),
      );
    } else if (SCHEMA_KEYWORDS.has(key)) {
      out[key] = convert(value, level);
    } else if (SCHEMA_LIST_KEYWORDS.has(key)) {
      out[key] = (value as unknown[]).map((sub) => convert(sub, level));
    } else {
      out[key] = value;
    }
  }
  return out;
}

/** A named schema of components.schemas at a level, with $schema set. */
export function schema(name: string, level: Level = 'contract'): JsonObject {
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    ...toJsonSchema({ $ref: `#/components/schemas/${name}` }, level),
  };
}

/** Names of components.schemas. */
export const schemaNames: readonly string[] = Object.keys(
  ((resolvePointer('#/components') as JsonObject).schemas as JsonObject),
);

/**
 * An ajv instance in strict mode with the standard formats and the two formats the spec names
 * without defining (flows-vault-connections-id, connection-id): those accept any string, because
 * the spec gives them no rule; their observed shapes are `pattern`s of the observed level.
 * `strictTypes: false` is for schemas edited on purpose (the mock's faults) that leave a keyword
 * such as `minimum` without its `type`.
 */
export function createAjv(options: { strictTypes?: boolean } = {}): Ajv2020 {
  const ajv = new Ajv2020({ strict: true, allErrors: true, ...options });
  addFormats.default(ajv);
  ajv.addFormat('flows-vault-connections-id', { type: 'string', validate: () => true });
  ajv.addFormat('connection-id', { type: 'string', validate: () => true });
  return ajv;
}

const sharedAjv = createAjv();
const cache = new Map<string, ValidateFunction>();

/** A compiled validator for a named schema, cached per level. */
export function validator(name: string, level: Level = 'contract'): ValidateFunction {
  const key = `${level}:${name}`;
  let validate = cache.get(key);
  if (!validate) {
    validate = sharedAjv.compile(schema(name, level));
    cache.set(key, validate);
  }
  return validate;
}

/** A compiled validator for any schema node of the document (a parameter's, a property's). */
export function compileNode(node: unknown, level: Level = 'contract'): ValidateFunction {
  return sharedAjv.compile(toJsonSchema(node, level));
}

/** One line per ajv error: "/app_id must NOT have more than 55 characters". */
export function describeErrors(errors: ErrorObject[] | null | undefined): string {
  if (!errors || errors.length === 0) return 'valid';
  return errors
    .map((e) => {
      const where = e.instancePath || '(root)';
      if (e.keyword === 'additionalProperties') {
        return `${where} has unknown property ${JSON.stringify(e.params.additionalProperty)}`;
      }
      if (e.keyword === 'required') return `${where} lacks required ${JSON.stringify(e.params.missingProperty)}`;
      return `${where} ${e.message ?? e.keyword}`;
    })
    .join('; ');
}
