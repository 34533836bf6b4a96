// JSON Schemas (draft 2020-12) taken from openapi.yaml, at the contract or the observed level.
//
// An OpenAPI 3.1 schema object is a JSON Schema plus extension keywords. To get the contract
// schema we inline $refs and drop every `x-` keyword; for the observed schema we first merge each
// node's `x-observed` block over it. Nothing here is a hand copy: change openapi.yaml and the
// schemas follow.
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { alphabetOf, observed, shapeOfFormat, type IdentifierShape } from './observed.ts';
import { type JsonObject, resolvePointer } from './openapi.ts';

export type Level = 'contract' | 'observed';

const SCHEMA_MAP_KEYWORDS = new Set(['properties', 'patternProperties', '$defs', 'dependentSchemas']);
const SCHEMA_KEYWORDS = new Set([
  'items',
  'additionalProperties',
  'not',
  'contains',
  'propertyNames',
  'if',
  'then',
  'else',
  'unevaluatedProperties',
  'unevaluatedItems',
]);
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
  let source = inlined(node as JsonObject);
  if (level === 'observed' && source['x-observed']) source = refined(source, inlined(source['x-observed'] as JsonObject));
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(source)) {
    if (key.startsWith('x-') || OPENAPI_ONLY_KEYWORDS.has(key)) continue;
    if (SCHEMA_MAP_KEYWORDS.has(key)) {
      out[key] = Object.fromEntries(Object.entries(value as JsonObject).map(([name, sub]) => [name, convert(sub, level)]));
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

/** A node with its $ref replaced by the node it points at (sibling keys kept). */
function inlined(node: JsonObject): JsonObject {
  if (typeof node.$ref !== 'string') return node;
  const { $ref, ...siblings } = node;
  return { ...(resolvePointer($ref) as JsonObject), ...siblings };
}

/**
 * A node with its x-observed block merged over it. `properties` merge name by name, so that an
 * observed block can add a property the spec does not show without restating the others.
 */
function refined(node: JsonObject, observed: JsonObject): JsonObject {
  const merged = { ...node, ...observed };
  if (node.properties && observed.properties)
    merged.properties = { ...(node.properties as JsonObject), ...(observed.properties as JsonObject) };
  return merged;
}

/** A named schema of components.schemas at a level, with $schema set. */
export function schema(name: string, level: Level = 'contract'): JsonObject {
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    ...toJsonSchema({ $ref: `#/components/schemas/${name}` }, level),
  };
}

/** Names of components.schemas. */
export const schemaNames: readonly string[] = Object.keys((resolvePointer('#/components') as JsonObject).schemas as JsonObject);

/**
 * An ajv instance in strict mode with the standard formats and the named formats of the spec and
 * of the service's API description (connection-id, organization-id, client-id,
 * flows-vault-connections-id, strict-https-uri). The spec gives them no rule, so at the contract
 * level they accept any string; at the observed level (the default) the id formats are the real
 * id shapes of observed.yaml (prefix and alphabet) and strict-https-uri an absolute https URL.
 * `strictTypes: false` is for schemas edited on purpose (the mock's faults) that leave a keyword
 * such as `minimum` without its `type`; `coerceTypes: 'array'` for form-encoded bodies, whose
 * fields arrive as strings.
 */
export function createAjv(options: { strictTypes?: boolean; level?: Level; coerceTypes?: 'array' } = {}): Ajv2020 {
  const { level = 'observed', ...ajvOptions } = options;
  const ajv = new Ajv2020({ strict: true, allErrors: true, ...ajvOptions });
  addFormats.default(ajv);
  // RFC 3339 5.6 writes "T" (or "t") between the date and the time; ajv-formats also takes a space,
  // which the RFC's note allows other standards and OpenAPI's date-time does not. Its offset is "Z"
  // or hours and minutes with a colon (time-numoffset); ajv-formats also takes ISO 8601's basic
  // "+0000" and the hours alone ("+00"), which RFC 3339 does not.
  const dateTime = ajv.formats['date-time'] as {
    validate: (value: string) => boolean;
    compare: (a: string, b: string) => number | undefined;
  };
  ajv.addFormat('date-time', {
    type: 'string',
    validate: (value) => RFC3339_SEPARATOR.test(value) && RFC3339_OFFSET.test(value) && dateTime.validate(value),
    compare: dateTime.compare,
  });
  for (const [name, check] of Object.entries(namedFormats)) {
    ajv.addFormat(name, { type: 'string', validate: level === 'observed' ? check : () => true });
  }
  return ajv;
}

/** The date and the time of an RFC 3339 date-time, and the "T" between them. */
const RFC3339_SEPARATOR = /^\d{4}-\d{2}-\d{2}[Tt]/;

/** The offset that ends an RFC 3339 date-time: "Z" (or "z"), or a sign, hours, a colon and minutes. */
const RFC3339_OFFSET = /(?:[Zz]|[+-]\d{2}:\d{2})$/;

/** The formats' observed checks. flows-vault-connections-id stays open: its shape is a `pattern` of the observed level. */
const namedFormats: Record<string, (value: string) => boolean> = {
  'flows-vault-connections-id': () => true,
  'strict-https-uri': isHttpsUrl,
  ...Object.fromEntries(Object.keys(observed.identifier_formats).map((format) => [format, idShapeCheck(shapeOfFormat(format))])),
};

function idShapeCheck(shape: IdentifierShape): (value: string) => boolean {
  const body = new Set(alphabetOf(shape));
  return (value) =>
    value.length > shape.prefix.length && value.startsWith(shape.prefix) && [...value.slice(shape.prefix.length)].every((c) => body.has(c));
}

function isHttpsUrl(value: string): boolean {
  if (/\s/.test(value)) return false;
  try {
    return new URL(value).protocol === 'https:';
  } catch {
    return false;
  }
}

const ajvs: Record<Level, Ajv2020> = { contract: createAjv({ level: 'contract' }), observed: createAjv({ level: 'observed' }) };
const cache = new Map<string, ValidateFunction>();

/** A compiled validator for a named schema, cached per level. */
export function validator(name: string, level: Level = 'contract'): ValidateFunction {
  const key = `${level}:${name}`;
  let validate = cache.get(key);
  if (!validate) {
    validate = ajvs[level].compile(schema(name, level));
    cache.set(key, validate);
  }
  return validate;
}

/** A compiled validator for any schema node of the document (a parameter's, a property's). */
export function compileNode(node: unknown, level: Level = 'contract'): ValidateFunction {
  return ajvs[level].compile(toJsonSchema(node, level));
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
