// One operation as a description states it, in a shape two descriptions can be compared in: its
// parameters, request body, success answer, statuses, scopes, refusal causes and lifecycle, each
// schema normalised (references inlined, prose and defaults dropped, keywords that constrain
// nothing dropped, aliases of one rule given one name).

export type Schema = { [key: string]: unknown };

export interface OperationView {
  /** "path id", "header auth0-custom-domain": whether it is required and its schema. */
  parameters: Record<string, { required: boolean; schema: Schema }>;
  body?: { contentTypes: string[]; schema: Schema };
  success?: { status: string; schema?: Schema };
  statuses: string[];
  scopes: string[];
  /** Status → the causes of refusal the description gives it (keys of causes.ts). */
  causes: Record<string, string[]>;
  lifecycle?: string;
  /** Body field → its lifecycle mark, where it has one. */
  fieldLifecycles: Record<string, string>;
}

/** Keywords that say nothing a conformance check could hold a target to. */
const PROSE = new Set(['description', 'default', 'example', 'examples', 'title', '$schema', 'summary']);
/** Names the service's description gives rules the project names otherwise: same rule, one name. */
const FORMAT_ALIASES: Record<string, string> = { 'strict-https-uri-or-null': 'strict-https-uri' };
/** The description's lifecycle words, as the spec writes them. */
export const LIFECYCLES: Record<string, string> = {
  GA: 'Generally Available',
  EA: 'Early Access',
  beta: 'Beta',
  deprecated: 'Deprecated',
  planned: 'Planned',
};

/** A schema with its `$ref`s inlined from `resolve` (cycles cut at the second visit), then normalised. */
export function normalisedSchema(node: unknown, resolve: (ref: string) => unknown, seen: ReadonlySet<string> = new Set()): Schema {
  if (node === null || typeof node !== 'object' || Array.isArray(node)) return {};
  let source = node as Schema;
  if (typeof source.$ref === 'string') {
    const ref = source.$ref;
    if (seen.has(ref)) return { $ref: ref };
    const { $ref: _ref, ...siblings } = source;
    source = { ...(resolve(ref) as Schema), ...siblings };
    seen = new Set([...seen, ref]);
  }
  const out: Schema = {};
  for (const [key, value] of Object.entries(source)) {
    if (PROSE.has(key) || key.startsWith('x-')) continue;
    if ((key === 'minItems' || key === 'minLength') && value === 0) continue;
    if (key === 'properties') {
      out.properties = Object.fromEntries(
        Object.entries(value as Schema).map(([name, sub]) => [name, normalisedSchema(sub, resolve, seen)]),
      );
    } else if (key === 'items' || (key === 'additionalProperties' && typeof value === 'object')) {
      out[key] = normalisedSchema(value, resolve, seen);
    } else if (key === 'allOf' || key === 'anyOf' || key === 'oneOf') {
      out[key] = (value as unknown[]).map((sub) => normalisedSchema(sub, resolve, seen));
    } else if (key === 'format') {
      out.format = FORMAT_ALIASES[value as string] ?? value;
    } else if ((key === 'enum' || key === 'required') && Array.isArray(value)) {
      out[key] = [...(value as unknown[])].map(String).sort();
    } else if (key === 'type' && Array.isArray(value)) {
      out.type = value.length === 1 ? value[0] : [...(value as string[])].sort();
    } else {
      out[key] = value;
    }
  }
  return out;
}
