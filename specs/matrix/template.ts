// Valid requests as data (RequestTemplate), built from an operation's card and what the target
// offers (its fixtures, its clients' ids, the name it gives the custom-domain header), and the JSON
// edits the body variations make. The matrix describes its rows in a canonical context, a target
// of the observed id shapes, so that titles and expectations are the same for every target; the
// harness applies the same variations to the real target's valid request at run time.
import type { BodySpec, PathPart, RequestTemplate } from '../cards/card.ts';
import type { OperationCard } from '../cards/card.ts';
import { fixtureTable, type FixtureEntry, type TargetFixtures } from '../cards/fixtures.ts';
import { basePath, type JsonObject } from '../openapi.ts';
import { alphabetOf, observed, type IdentifierShape } from '../observed.ts';
import { schema } from '../schemas.ts';

/** What a target offers the request builders. */
export interface RequestContext {
  fixtures: TargetFixtures;
  /** Client ids of the configured roles, by role name. */
  clients: Readonly<Record<string, string>>;
  /** The header the spec calls tenant-custom-domain, as the target names it. */
  customDomainHeader: string;
  /** The origin the interface is reached at (its base URL's), where the target says; "https://<host>". */
  origin?: string;
  /** The id of a client that authenticates with a key (private_key_jwt), where the target offers one with its private key. */
  keyClient?: string;
}

/** A made-up id of a shape; `n` picks another one of the same shape. */
function madeUpId(shape: IdentifierShape, n = 0): string {
  const alphabet = alphabetOf(shape);
  let body = '';
  for (let i = 0; body.length < shape.length - shape.prefix.length; i += 1) body += alphabet[(i * 11 + n * 17 + 5) % alphabet.length]!;
  return shape.prefix + body;
}

const ids = observed.identifiers;

/** A target of the observed id shapes: where the matrix's titles and expectations are worked out. */
export const canonicalContext: RequestContext = {
  fixtures: canonicalFixtures(),
  clients: { global: madeUpId(ids.client), non_global: madeUpId(ids.client, 1) },
  customDomainHeader: 'tenant-custom-domain',
  keyClient: madeUpId(ids.client, 2),
};

/** Each fixture's sample (specs/cards/fixtures.ts): a made-up id of its shape (a list of one), or its text. */
function canonicalFixtures(): TargetFixtures {
  const entries = Object.entries(fixtureTable as Record<string, FixtureEntry>).flatMap(([name, entry]) => {
    if (!entry.sample) return [];
    const value = 'text' in entry.sample ? entry.sample.text : madeUpId(ids[entry.sample.shape], entry.sample.n);
    return [[name, entry.list ? [value] : value] as const];
  });
  return Object.fromEntries(entries) as unknown as TargetFixtures;
}

/** The value of a path parameter in the valid request: its fixture (the first of a list). */
export function paramValue(card: OperationCard, name: string, context: RequestContext): string {
  const fixture = card.params[name]!.fixture;
  const value = context.fixtures[fixture];
  if (value === undefined)
    throw new Error(
      `the path parameter ${name} of ${card.key} names the fixture ${fixture}, which has no value here (a sample in specs/cards/fixtures.ts?)`,
    );
  return Array.isArray(value) ? (value as string[])[0]! : value;
}

/** The valid request of an operation: its fixtures in the path, the global role's token, the empty body where it has one. */
export function validTemplate(card: OperationCard, context: RequestContext, body?: unknown): RequestTemplate {
  const spec = card.spec;
  const path: PathPart[] = `${basePath}${spec.pathTemplate}`
    .split('/')
    .slice(1)
    .map((text) => {
      const param = /^\{(.+)\}$/.exec(text)?.[1];
      return param === undefined ? { literal: text } : { param, value: paramValue(card, param, context) };
    });
  const json = body ?? card.body?.empty;
  return {
    method: spec.method,
    path,
    query: [],
    headers: json === undefined ? {} : { 'content-type': ['application/json'] },
    ...(json === undefined ? {} : { body: { json } }),
    credential: { kind: 'role', role: 'global' },
  };
}

/** A value of a header parameter the operations take as a host name (a custom domain). */
export const A_HEADER_VALUE = 'login.example.com';

/** The spec's name of the custom-domain header; the service's is observed.custom_domain_header. */
export const SPEC_CUSTOM_DOMAIN = 'tenant-custom-domain';

/** A header parameter's name as the target reads it: the spec's tenant-custom-domain as the target names it (the real service: auth0-custom-domain). */
export function headerNamed(name: string, context: RequestContext): string {
  return name === SPEC_CUSTOM_DOMAIN ? context.customDomainHeader.toLowerCase() : name.toLowerCase();
}

/**
 * The valid request with every optional part present, each in a legal but less common form: the
 * scheme written in lower case (RFC 9110 11.1), Accept naming other types besides JSON, every
 * optional header parameter at a valid value, each path id with its last character
 * percent-encoded (RFC 3986 2.3: the same id), and every body field (the exclusive group the
 * fullest body does not hold) typed with its charset parameter and written with white space around
 * its punctuation (RFC 8259 2). A refusal is varied
 * beside it too: a check reached only by one path through the parser, router or verifier (a
 * lower-case scheme, a custom domain, an encoded id, a body with every member) lets the defect through.
 */
export function unusualTemplate(card: OperationCard, context: RequestContext): RequestTemplate {
  if (!card.body) return withUnusualParts(card, validTemplate(card, context), context);
  const global = context.clients.global ?? canonicalContext.clients.global!;
  const other = otherGroupUnavailable(card, context) === undefined ? otherGroupFullBody(card, context) : undefined;
  return withUnusualParts(card, validTemplate(card, context, other ?? card.body.full(context.fixtures, { global })), context);
}

/**
 * Every body field with the other exclusive group than the fullest body's (a connection created
 * rather than named): a check made in one branch of a handler only (the profile looked up where the
 * body edits a connection) is met in the other. Undefined where the card has no two groups.
 */
function otherGroupFullBody(card: OperationCard, context: RequestContext): JsonObject | undefined {
  const groups = card.body?.exclusive ?? [];
  if (groups.length < 2) return undefined;
  const global = context.clients.global ?? canonicalContext.clients.global!;
  const full = card.body!.full(context.fixtures, { global });
  const held = groups.filter((group) => group.some((name) => name in full)).flat();
  const every = everyFieldBody(card, context) as JsonObject;
  const base = Object.fromEntries(Object.entries(every).filter(([name]) => !held.includes(name)));
  return groups.some((group) => !group.some((name) => held.includes(name)) && group.some((name) => name in base)) ? base : undefined;
}

/** A request's optional parts put in their less common forms (unusualTemplate); the request made on it is finished by withUnusualText. */
export function withUnusualParts(card: OperationCard, template: RequestTemplate, context: RequestContext): RequestTemplate {
  const headers: Record<string, string[]> = { ...template.headers, accept: ['application/json, text/plain, */*'] };
  if (template.headers['content-type']?.[0] === 'application/json') headers['content-type'] = ['application/json; charset=utf-8'];
  for (const parameter of card.spec.parameters)
    if (parameter.in === 'header' && !parameter.required) headers[headerNamed(parameter.name, context)] = [A_HEADER_VALUE];
  return { ...template, headers };
}

/** RFC 3986 2.3's unreserved characters, whole: a path id that encoding one of them leaves the same id. */
const UNRESERVED_TEXT = /^[A-Za-z0-9\-._~]+$/;

/**
 * What the less common forms change once the request is made: the token carried under the scheme
 * in lower case, where nothing else says how it travels; each path id of unreserved characters
 * with its last one percent-encoded (the same id); and a JSON body written spaced.
 */
export function withUnusualText(template: RequestTemplate): RequestTemplate {
  const path = template.path.map((part) =>
    'param' in part && !part.encoded && UNRESERVED_TEXT.test(part.value)
      ? { param: part.param, value: percentEncodedLast(part.value), encoded: true as const }
      : part,
  );
  const credential = template.credential;
  const carried =
    (credential.kind === 'role' || credential.kind === 'alternative') && credential.carry === undefined
      ? { ...credential, carry: { authorization: (token: string) => [`bearer ${token}`] } }
      : credential;
  const body = template.body !== undefined && 'json' in template.body ? { ...template.body, format: 'spaced' as const } : template.body;
  return { ...template, path, credential: carried, ...(body === undefined ? {} : { body }) };
}

/**
 * The valid request in forms the spec neither requires nor forbids, which a target may refuse: the
 * scheme in capitals followed by two spaces (RFC 9110 11.4 allows one or more), an Accept that
 * prefers HTML, each path id repeated under its name in the query, HEAD for GET (RFC 9110 9.3.2),
 * a form-encoded body (a JSON body, where a body field is varied, after a byte order mark: RFC
 * 8259 8.1 lets a parser ignore it), and a re-signed token typed at+jwt (RFC 9068 2.1). A
 * refusal beside them verifies its clause only where the target takes them (its control); else the
 * row is not applicable. A check skipped on one of those paths lets the defect through. The request
 * made on it is finished by withLenientText.
 */
export function lenientTemplate(card: OperationCard, element: { kind: string }, every: () => RequestTemplate, context: RequestContext) {
  const valid = validTemplate(card, context);
  const template = element.kind === 'body-field' ? every() : lenientBody(card, valid, context);
  const query: Array<[string, string]> = valid.path.flatMap((part) =>
    'param' in part ? [[part.param, part.value] as [string, string]] : [],
  );
  return {
    ...template,
    ...(template.method === 'GET' ? { method: 'HEAD' } : {}),
    query: [...template.query, ...query],
    headers: { ...template.headers, accept: ['text/html, application/json;q=0.9'] },
  };
}

/**
 * A request's body as a form the spec leaves open: form-encoded (the spec asks for JSON; a form
 * parser beside the JSON one may skip what the JSON path checks), holding the first top-level field
 * of the fullest body with a scalar value; as it is where there is none.
 */
function lenientBody(card: OperationCard, template: RequestTemplate, context: RequestContext): RequestTemplate {
  if (!card.body) return template;
  const global = context.clients.global ?? canonicalContext.clients.global!;
  const full = card.body.full(context.fixtures, { global });
  const scalar = Object.entries(full).find(([, value]) => value !== null && typeof value !== 'object');
  return scalar ? asFormTemplate(withBody(template, { json: Object.fromEntries([scalar]) })) : template;
}

/** What the lenient forms change once the request is made (lenientTemplate). */
export function withLenientText(template: RequestTemplate): RequestTemplate {
  const credential = template.credential;
  let lenient = credential;
  if ((credential.kind === 'role' || credential.kind === 'alternative') && credential.carry === undefined)
    lenient = { ...credential, carry: { authorization: (token: string) => [`BEARER  ${token}`] } };
  if (lenient.kind === 'role' && lenient.edit?.resign !== undefined && lenient.edit.resign.headerText === undefined) {
    const header = lenient.edit.resign.header;
    const resign = { ...lenient.edit.resign, header: (h: Record<string, unknown>) => ({ ...(header ? header(h) : h), typ: 'at+jwt' }) };
    lenient = { ...lenient, edit: { ...lenient.edit, resign } };
  }
  const body = template.body !== undefined && 'json' in template.body ? { ...template.body, format: 'bom' as const } : template.body;
  return { ...template, credential: lenient, ...(body === undefined ? {} : { body }) };
}

/** An id with its last character percent-encoded, the rest as encodeURIComponent writes it (RFC 3986 2.3: the same id). */
export function percentEncodedLast(id: string): string {
  const last = id.slice(-1);
  return `${encodeURIComponent(id.slice(0, -1))}%${last.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`;
}

/** JSON written with a space on each side of its colons and commas and inside its brackets: the same value (RFC 8259 2). */
export function spacedJson(value: unknown): string {
  if (Array.isArray(value)) return value.length === 0 ? '[ ]' : `[ ${value.map((item) => spacedJson(item ?? null)).join(' , ')} ]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).filter(([, member]) => member !== undefined);
    return entries.length === 0
      ? '{ }'
      : `{ ${entries.map(([name, member]) => `${JSON.stringify(name)} : ${spacedJson(member)}`).join(' , ')} }`;
  }
  return JSON.stringify(value);
}

/** The URL path of a template (segments percent-encoded), from the target's origin. */
export function pathOf(template: RequestTemplate): string {
  return `/${template.path.map((part) => ('literal' in part ? (part.encoded ? part.literal : encodeURIComponent(part.literal)) : part.encoded ? part.value : encodeURIComponent(part.value))).join('/')}`;
}

// --- Bodies -----------------------------------------------------------------------------------

/** "[]" in a field path stands for the first item of an array. */
const ANY_ITEM = '[]';

export const ABSENT: unique symbol = Symbol('absent');
export type Absent = typeof ABSENT;

/** The value at a path of a JSON value, or ABSENT. */
export function valueAt(json: unknown, path: readonly string[]): unknown {
  let node: unknown = json;
  for (const step of path) {
    if (step === ANY_ITEM) {
      if (!Array.isArray(node) || node.length === 0) return ABSENT;
      node = node[0];
    } else {
      if (node === null || typeof node !== 'object' || Array.isArray(node) || !(step in node)) return ABSENT;
      node = (node as JsonObject)[step];
    }
  }
  return node;
}

/** A copy of a JSON value with the value at a path set (or removed, for ABSENT), parents made as needed. */
export function withValueAt(json: unknown, path: readonly string[], value: unknown): unknown {
  if (path.length === 0) return value;
  const [step, ...rest] = path as [string, ...string[]];
  if (step === ANY_ITEM) {
    const items = Array.isArray(json) ? [...(json as unknown[])] : [];
    const next = withValueAt(items[0], rest, value);
    if (next === ABSENT) return items.slice(1);
    items[0] = next;
    return items;
  }
  const object = json !== null && typeof json === 'object' && !Array.isArray(json) ? { ...(json as JsonObject) } : {};
  const next = withValueAt(object[step], rest, value);
  if (next === ABSENT) delete object[step];
  else object[step] = next;
  return object;
}

/**
 * A copy of a JSON value whose first array on the path holds `count` valid items (copies of its
 * first item, or of `validItem` where it has none) and then a copy with the value at the rest of
 * the path set: the defect sits where a validator that checks only the first item, or only so
 * many, never reads.
 */
export function withValueAfterValidItems(
  json: unknown,
  path: readonly string[],
  value: unknown,
  validItem: unknown,
  count: number,
): unknown {
  const at = path.indexOf(ANY_ITEM);
  if (at < 0) return withValueAt(json, path, value);
  const list = valueAt(json, path.slice(0, at));
  const first: unknown = Array.isArray(list) && list.length > 0 ? list[0] : validItem;
  return withValueAt(json, path.slice(0, at), [
    ...Array.from({ length: count }, () => first),
    withValueAt(first, path.slice(at + 1), value),
  ]);
}

/** A body of top-level scalars form-encoded (application/x-www-form-urlencoded), or undefined where it is not flat. */
export function formOf(json: unknown): string | undefined {
  if (json === null || typeof json !== 'object' || Array.isArray(json)) return undefined;
  const entries = Object.entries(json as JsonObject);
  if (entries.some(([, value]) => value === null || typeof value === 'object')) return undefined;
  return new URLSearchParams(entries.map(([name, value]): [string, string] => [name, String(value)])).toString();
}

/** A template whose flat JSON body is sent form-encoded instead (unchanged where the body is not flat). */
export function asFormTemplate(template: RequestTemplate): RequestTemplate {
  const form = formOf(jsonBodyOf(template));
  if (form === undefined) return template;
  return { ...template, headers: { ...template.headers, 'content-type': ['application/x-www-form-urlencoded'] }, body: { raw: form } };
}

/** A template with another body (JSON, or raw text), or none. */
export function withBody(template: RequestTemplate, body: BodySpec | undefined): RequestTemplate {
  const { body: _old, ...rest } = template;
  return body === undefined ? rest : { ...rest, body };
}

/** The JSON body of a template (undefined when it has none, or a raw one). */
export function jsonBodyOf(template: RequestTemplate): unknown {
  return template.body !== undefined && 'json' in template.body ? template.body.json : undefined;
}

/**
 * A valid value for a body field: from the card's body with every field where it holds one, else
 * made from the field's observed schema (an enum's first value, a bound, a required member).
 */
export function validValueAt(card: OperationCard, path: readonly string[], context: RequestContext): unknown {
  const every = everyFieldBody(card, context);
  const found = valueAt(every, path);
  if (found !== ABSENT) return found;
  return valueOfSchema(schemaAt(card, path, 'observed') ?? schemaAt(card, path, 'contract') ?? {});
}

const everyFieldBodies = new WeakMap<RequestContext, Map<string, unknown>>();

/** The card's body with every field, its mutually exclusive groups both present (for looking values up); made once per context. */
function everyFieldBody(card: OperationCard, context: RequestContext): unknown {
  const known = everyFieldBodies.get(context) ?? new Map<string, unknown>();
  everyFieldBodies.set(context, known);
  if (!known.has(card.key)) known.set(card.key, everyFieldBodyOf(card, context));
  return known.get(card.key);
}

function everyFieldBodyOf(card: OperationCard, context: RequestContext): unknown {
  const withConnection = { ...context.fixtures, connectionId: context.fixtures.connectionId ?? canonicalContext.fixtures.connectionId };
  const withoutConnection = { ...context.fixtures, connectionId: undefined };
  const global = context.clients.global ?? canonicalContext.clients.global!;
  return { ...card.body!.full(withoutConnection, { global }), ...card.body!.full(withConnection, { global }) };
}

/** The schema node of a body field at a level, or undefined. */
const bodySchemas = new Map<string, JsonObject>();

export function schemaAt(card: OperationCard, path: readonly string[], level: 'contract' | 'observed'): JsonObject | undefined {
  const name = `${card.body!.schema} ${level}`;
  if (!bodySchemas.has(name)) bodySchemas.set(name, schema(card.body!.schema, level));
  let node: JsonObject | undefined = bodySchemas.get(name);
  for (const step of path) {
    const next: unknown = step === ANY_ITEM ? node?.items : (node?.properties as JsonObject | undefined)?.[step];
    node = next !== null && typeof next === 'object' ? (next as JsonObject) : undefined;
  }
  return node;
}

/** A value a schema node accepts: its enum's first, its minimum, a string of its minimum length, its required members. */
function valueOfSchema(node: JsonObject): unknown {
  if (Array.isArray(node.enum)) return node.enum[0];
  const type = Array.isArray(node.type) ? (node.type as string[]).find((t) => t !== 'null') : (node.type as string | undefined);
  switch (type) {
    case 'boolean':
      return false;
    case 'integer':
    case 'number':
      return typeof node.minimum === 'number' ? node.minimum : 1;
    case 'array':
      return node.items && typeof node.items === 'object' ? [valueOfSchema(node.items as JsonObject)] : [];
    case 'object': {
      const required = (node.required as string[] | undefined) ?? [];
      const properties = (node.properties as Record<string, JsonObject> | undefined) ?? {};
      return Object.fromEntries(required.map((name) => [name, valueOfSchema(properties[name] ?? {})]));
    }
    default:
      return node.format === 'strict-https-uri' || node.format === 'uri'
        ? 'https://example.com/'
        : 'a'.repeat(Math.max(1, Number(node.minLength ?? 1)));
  }
}

/**
 * The smallest valid body holding a field at its valid value: each object on the way keeps only
 * the members its observed schema requires, each array one item.
 */
export function aloneBody(card: OperationCard, path: readonly string[], context: RequestContext): unknown {
  let body: unknown = {};
  for (let depth = 1; depth < path.length; depth += 1) {
    const prefix = path.slice(0, depth);
    if (path[depth] === ANY_ITEM) continue;
    const node = schemaAt(card, prefix, 'observed');
    for (const name of (node?.required as string[] | undefined) ?? []) {
      if (name === path[depth]) continue;
      body = withValueAt(body, [...prefix, name], validValueAt(card, [...prefix, name], context));
    }
  }
  return withValueAt(body, path, validValueAt(card, path, context));
}

/** The card's body with every field, and this field at its valid value (its group swapped in where the card's body holds another). */
export function everyBody(card: OperationCard, path: readonly string[], context: RequestContext): unknown {
  const global = context.clients.global ?? canonicalContext.clients.global!;
  const full = card.body!.full(context.fixtures, { global });
  const top = path[0]!;
  const base = top in full ? full : Object.fromEntries(Object.entries(full).filter(([name]) => !exclusiveWith(card, top).includes(name)));
  return withValueAt({ ...base, [top]: holderOf(card, path, base, context) }, path, validValueAt(card, path, context));
}

/**
 * The value of a field's top-level member in a body with every field: the body's own (so the
 * field's siblings at every depth are there beside it), with what the smallest body holding the
 * field has and it lacks (an object on the way that the body leaves out, with its required members).
 */
function holderOf(card: OperationCard, path: readonly string[], body: JsonObject, context: RequestContext): unknown {
  const top = path[0]!;
  const alone = (aloneBody(card, path, context) as JsonObject)[top];
  return top in body ? withMissingFrom(body[top], alone) : alone;
}

const isObject = (value: unknown): value is JsonObject => value !== null && typeof value === 'object' && !Array.isArray(value);

/** `value`, with the members (of objects) and first items (of lists) that `filler` has and it lacks, at every depth. */
function withMissingFrom(value: unknown, filler: unknown): unknown {
  if (Array.isArray(value) && Array.isArray(filler)) {
    const items = value as unknown[];
    return items.length === 0 ? filler : [withMissingFrom(items[0], (filler as unknown[])[0]), ...items.slice(1)];
  }
  if (!isObject(value) || !isObject(filler)) return value;
  const out: JsonObject = { ...value };
  for (const [name, member] of Object.entries(filler)) out[name] = name in value ? withMissingFrom(value[name], member) : member;
  return out;
}

/** The top-level fields that do not come together with `field` (the card's exclusive groups). */
function exclusiveWith(card: OperationCard, field: string): string[] {
  const groups = card.body?.exclusive ?? [];
  const own = groups.find((group) => group.includes(field));
  return own ? groups.filter((group) => group !== own).flat() : [];
}

/**
 * The fields of a card's body that belong to none of its exclusive groups, varied beside the group
 * the card's body does not hold (the other one swapped in): a rule of one field that depends on
 * which group comes with it (a bound looked up per kind of flow) is checked in both. Undefined
 * where the field is in a group, or the card has no two groups.
 */
export function otherGroupBody(card: OperationCard, path: readonly string[], context: RequestContext): unknown {
  const top = path[0]!;
  if ((card.body?.exclusive ?? []).some((group) => group.includes(top))) return undefined;
  const base = otherGroupFullBody(card, context);
  if (base === undefined) return undefined;
  return withValueAt({ ...base, [top]: holderOf(card, path, base, context) }, path, validValueAt(card, path, context));
}

/**
 * The body with both exclusive groups together (every field there is), the field of a group at its
 * valid value: a rule of one group that a handler applies only when the other is absent (an edit
 * branch that reads the create branch's field by name alone) is checked there. Undefined where the
 * field is in no group, or the card has no two groups.
 */
export function bothGroupsBody(card: OperationCard, path: readonly string[], context: RequestContext): unknown {
  const groups = card.body?.exclusive ?? [];
  const top = path[0]!;
  if (groups.length < 2 || !groups.some((group) => group.includes(top))) return undefined;
  const every = everyFieldBody(card, context) as JsonObject;
  return withValueAt({ ...every, [top]: holderOf(card, path, every, context) }, path, validValueAt(card, path, context));
}

/**
 * Why a target cannot send the other exclusive group (undefined where it can): the group that edits
 * a connection needs one of the target's, and a target file that names none gets a made-up id there.
 */
export function otherGroupUnavailable(card: OperationCard, context: RequestContext): string | undefined {
  if (context.fixtures.connectionId !== undefined) return undefined;
  const global = context.clients.global ?? canonicalContext.clients.global!;
  const own = card.body!.full(context.fixtures, { global });
  const withConnection = card.body!.full({ ...context.fixtures, connectionId: canonicalContext.fixtures.connectionId }, { global });
  return JSON.stringify(own) === JSON.stringify(withConnection)
    ? undefined
    : "the body's other exclusive group edits a connection, and the target file names none (connectionId)";
}
