// Differences between two views of one operation (view.ts): where each is (a parameter, a body
// field, the success answer, the statuses, scopes, causes of a status, lifecycle marks), what
// differs there (a keyword, a field's presence, a status listed or not), and the two values.
import type { OperationView, Schema } from './view.ts';

export interface Difference {
  /** "body.ttl_sec", "path id", "success body.app_id", "statuses", "scopes", "causes 403", "lifecycle". */
  where: string;
  /** "maximum", "field", "403", "read:x", "invalid_token", "required", "status", "content types". */
  what: string;
  a: unknown;
  b: unknown;
}

/** The keywords compared as values; properties, items and additionalProperties are walked. */
const KEYWORDS = [
  'type',
  'format',
  'pattern',
  'minLength',
  'maxLength',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'enum',
  'const',
  'required',
  'minItems',
  'maxItems',
  'uniqueItems',
  'minProperties',
  'maxProperties',
  'oneOf',
  'anyOf',
  'allOf',
];

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const ABSENT = '(absent)';

export function schemaDifferences(a: Schema | undefined, b: Schema | undefined, where: string): Difference[] {
  const left = a ?? {};
  const right = b ?? {};
  const out: Difference[] = [];
  for (const keyword of KEYWORDS) {
    if (!same(left[keyword], right[keyword])) out.push({ where, what: keyword, a: left[keyword] ?? ABSENT, b: right[keyword] ?? ABSENT });
  }
  const lp = (left.properties ?? {}) as Record<string, Schema>;
  const rp = (right.properties ?? {}) as Record<string, Schema>;
  for (const name of new Set([...Object.keys(lp), ...Object.keys(rp)])) {
    const at = where === '' ? name : `${where}.${name}`;
    if (!(name in rp)) out.push({ where: at, what: 'field', a: 'present', b: ABSENT });
    else if (!(name in lp)) out.push({ where: at, what: 'field', a: ABSENT, b: 'present' });
    else out.push(...schemaDifferences(lp[name], rp[name], at));
  }
  if (left.items !== undefined || right.items !== undefined)
    out.push(...schemaDifferences(left.items as Schema, right.items as Schema, `${where}[]`));
  const la = left.additionalProperties;
  const ra = right.additionalProperties;
  if (typeof la === 'object' && typeof ra === 'object') out.push(...schemaDifferences(la as Schema, ra as Schema, `${where}.*`));
  else if (!same(la, ra)) out.push({ where, what: 'additionalProperties', a: la ?? ABSENT, b: ra ?? ABSENT });
  return out;
}

function setDifferences(a: readonly string[], b: readonly string[], where: string): Difference[] {
  return [
    ...a.filter((x) => !b.includes(x)).map((x) => ({ where, what: x, a: 'listed', b: 'not listed' })),
    ...b.filter((x) => !a.includes(x)).map((x) => ({ where, what: x, a: 'not listed', b: 'listed' })),
  ];
}

export function viewDifferences(a: OperationView, b: OperationView): Difference[] {
  const out: Difference[] = [];
  for (const key of new Set([...Object.keys(a.parameters), ...Object.keys(b.parameters)])) {
    const [left, right] = [a.parameters[key], b.parameters[key]];
    if (!left || !right) {
      out.push({ where: key, what: 'parameter', a: left ? 'present' : ABSENT, b: right ? 'present' : ABSENT });
      continue;
    }
    if (left.required !== right.required) out.push({ where: key, what: 'required', a: left.required, b: right.required });
    out.push(...schemaDifferences(left.schema, right.schema, key));
  }
  if (a.body || b.body) {
    if (!same(a.body?.contentTypes, b.body?.contentTypes))
      out.push({ where: 'body', what: 'content types', a: a.body?.contentTypes ?? ABSENT, b: b.body?.contentTypes ?? ABSENT });
    out.push(...schemaDifferences(a.body?.schema, b.body?.schema, 'body'));
  }
  if (a.success?.status !== b.success?.status)
    out.push({ where: 'success', what: 'status', a: a.success?.status ?? ABSENT, b: b.success?.status ?? ABSENT });
  if (a.success?.schema || b.success?.schema) out.push(...schemaDifferences(a.success?.schema, b.success?.schema, 'success body'));
  out.push(...setDifferences(a.statuses, b.statuses, 'statuses'));
  out.push(...setDifferences(a.scopes, b.scopes, 'scopes'));
  for (const status of new Set([...Object.keys(a.causes), ...Object.keys(b.causes)])) {
    out.push(...setDifferences(a.causes[status] ?? [], b.causes[status] ?? [], `causes ${status}`));
  }
  if (a.lifecycle !== b.lifecycle) out.push({ where: 'lifecycle', what: 'lifecycle', a: a.lifecycle ?? ABSENT, b: b.lifecycle ?? ABSENT });
  for (const field of new Set([...Object.keys(a.fieldLifecycles), ...Object.keys(b.fieldLifecycles)])) {
    if (a.fieldLifecycles[field] !== b.fieldLifecycles[field]) {
      out.push({ where: `body.${field}`, what: 'lifecycle', a: a.fieldLifecycles[field] ?? ABSENT, b: b.fieldLifecycles[field] ?? ABSENT });
    }
  }
  return out;
}
