// Ticket creation's answer and the rules of its request beyond types and limits (spec 2.2, 4.2):
// the status and content type of the answer, the ticket URL it holds, which bodies it takes (an
// object, every field optional), and the taken-name conflict.
import { decodeJwt } from 'jose';
import { observed, schema, type JsonObject } from '../../specs/index.ts';
import type { FaultHooks } from '../app.ts';
import { bearerToken } from '../auth/bearer.ts';
import { faultFamily } from './fault.ts';
import { capture } from './support/captured.ts';
import { editBodySchema, fieldNode } from './support/check-edits.ts';
import { parseKeepingFirst } from './support/first-member.ts';
import {
  editJsonBody,
  editReplies,
  editRequests,
  editSuccessReplies,
  isChunked,
  jsonEscapeKept,
  replayedByKeyAlone,
  withContentType,
} from './support/route-edits.ts';
import { isFormMediaType, isJsonMediaType } from '../stages/json-body.ts';
import { editStore } from './support/store-view.ts';
import { checksOf, compileFormBody } from '../validators.ts';

/** Changes the body of each ticket created; `edit` gets the ticket URL. */
function editTicketBody(app: FaultHooks, edit: (body: { ticket: string }) => unknown): void {
  editSuccessReplies(app, 'sso-ticket', (reply) => ({ ...reply, body: edit(reply.body as { ticket: string }) }));
}

/** The origin of the issuer a caller's bearer token names, where it names one. */
function callerOrigin(authorization: string | undefined): URL | undefined {
  const token = bearerToken(authorization);
  try {
    const issuer = token === undefined ? undefined : decodeJwt(token).iss;
    return issuer === undefined ? undefined : new URL(issuer);
  } catch {
    return undefined;
  }
}

/** Lets unknown properties through below the top level of a request schema. */
function allowUnknownBelow(node: JsonObject): void {
  for (const child of Object.values((node.properties as Record<string, JsonObject> | undefined) ?? {})) {
    const target = child.items !== undefined && typeof child.items === 'object' ? (child.items as JsonObject) : child;
    delete target.additionalProperties;
    allowUnknownBelow(target);
  }
}

/** The request's top-level integer fields (ttl_sec). */
const INTEGER_FIELDS = Object.entries(schema('SsoTicketRequest', 'contract').properties as Record<string, JsonObject>)
  .filter(([, node]) => node.type === 'integer')
  .map(([name]) => name);

/** Rewrites the text of ticket request bodies of one media type before the route reads them. */
function editTicketText(app: FaultHooks, ofType: (contentType: string | undefined) => boolean, edit: (text: string) => string): void {
  editRequests(app, 'sso-ticket', (exchange) =>
    ofType(exchange.headers['content-type']) ? { ...exchange, body: Buffer.from(edit(exchange.body.toString('utf8')), 'utf8') } : exchange,
  );
}

/** Changes one top-level field of JSON ticket bodies; `read` returns the value unchanged when it does not apply. */
function editTicketField(app: FaultHooks, field: string, read: (value: unknown) => unknown): void {
  editJsonBody(app, 'sso-ticket', (body) => {
    if (!isRecord(body)) return body;
    const value = read(body[field]);
    return value === body[field] ? body : { ...body, [field]: value };
  });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** The features enabled_features sets, each a flag. */
const FEATURE_NAMES: readonly unknown[] = ['sso', 'provisioning', 'domain_verification'];

/** How many items of a list the capped check reads. */
const ITEMS_CHECKED = 10;

/** Every list of the body, at any depth, cut to its first items before the checks (the ticket is made of what is left). */
function listsCut(value: unknown): unknown {
  if (Array.isArray(value)) return value.slice(0, ITEMS_CHECKED).map(listsCut);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([name, member]) => [name, listsCut(member)]));
}

/** Every member name of an object at `depth` or deeper (0: the body's own) renamed by `rename`, where that gives another name not taken. */
function membersRenamed(value: unknown, rename: (name: string) => string, depth: number): unknown {
  if (Array.isArray(value)) return value.map((item) => membersRenamed(item, rename, depth));
  if (!isRecord(value)) return value;
  const entries = Object.entries(value).map(([name, member]): [string, unknown] => {
    const renamed = depth <= 0 ? rename(name) : name;
    return [renamed !== name && !(renamed in value) ? renamed : name, membersRenamed(member, rename, depth - 1)];
  });
  return Object.fromEntries(entries);
}

/** Changes an object member of the ticket body before the route reads it (`edit` returns it unchanged when it does not apply). */
function editMemberOfBody(app: FaultHooks, member: string, edit: (value: Record<string, unknown>) => Record<string, unknown>): void {
  editJsonBody(app, 'sso-ticket', (body) => {
    const value = isRecord(body) ? body[member] : undefined;
    if (!isRecord(value)) return body;
    const edited = edit(value);
    return edited === value ? body : { ...(body as object), [member]: edited };
  });
}

/** humps' decamelize: "_" before each capital, then lower case ("ttlSec" -> "ttl_sec"). */
const decamelized = (name: string) => name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
/** enabled_organizations with the items of one organization_id merged into one ({...earlier, ...later}) before the checks. */
function organizationsMerged(body: unknown): unknown {
  const items = isRecord(body) ? body.enabled_organizations : undefined;
  if (!isRecord(body) || !Array.isArray(items)) return body;
  const merged = new Map<unknown, unknown>();
  items.forEach((item: unknown, index) => {
    const key = isRecord(item) && typeof item.organization_id === 'string' ? item.organization_id : index;
    const earlier = merged.get(key);
    merged.set(key, isRecord(earlier) && isRecord(item) ? { ...earlier, ...item } : item);
  });
  return merged.size === items.length ? body : { ...body, enabled_organizations: [...merged.values()] };
}

/** connection_config.options.icon_url with an http scheme made https (an upgrade of insecure URLs) before the checks. */
function iconUrlUpgraded(body: unknown): unknown {
  const config = isRecord(body) ? body.connection_config : undefined;
  const options = isRecord(config) ? config.options : undefined;
  if (!isRecord(body) || !isRecord(config) || !isRecord(options) || typeof options.icon_url !== 'string') return body;
  if (!/^http:\/\//i.test(options.icon_url)) return body;
  const icon_url = options.icon_url.replace(/^http:/i, 'https:');
  return { ...body, connection_config: { ...config, options: { ...options, icon_url } } };
}

/** connection_config.name cut at its first line break (a sanitiser against log injection) before the checks. */
function connectionNameFirstLine(body: unknown): unknown {
  const config = isRecord(body) ? body.connection_config : undefined;
  if (!isRecord(body) || !isRecord(config) || typeof config.name !== 'string' || !/[\r\n]/.test(config.name)) return body;
  return { ...body, connection_config: { ...config, name: config.name.split(/\r?\n|\r/)[0] } };
}

const observedBody = schema('SsoTicketRequest', 'observed');
/** Changes each object item of the ticket body's enabled_organizations before the route reads it (`edit` returns an item unchanged when it does not apply). */
function editEachOrganization(app: FaultHooks, edit: (item: Record<string, unknown>) => Record<string, unknown>): void {
  editJsonBody(app, 'sso-ticket', (body) => {
    const items = isRecord(body) ? body.enabled_organizations : undefined;
    if (!Array.isArray(items)) return body;
    const edited = items.map((item: unknown) => (isRecord(item) ? edit(item) : item));
    return edited.every((item, index) => item === items[index]) ? body : { ...(body as object), enabled_organizations: edited };
  });
}

/** The values provisioning_config.scopes may hold (the observed schema's enum). */
const PROVISIONING_SCOPES = (((schema('ProvisioningConfig', 'observed').properties as JsonObject).scopes as JsonObject).items as JsonObject)
  .enum as string[];
/** The members that name a ticket's connection, one or the other. */
const CONNECTION_MEMBERS = ['connection_id', 'connection_config'];
/** The observed limits the faults below count against. */
const METADATA_MAX = fieldNode(observedBody, 'connection_config.metadata').maxProperties as number;
const PENDING_DOMAIN_MAX = (fieldNode(observedBody, 'domain_aliases_config.pending_domains').items as JsonObject).maxLength as number;

/** A top-level member named with brackets ("a[b][c]"), as a qs-style parser splits it. */
const BRACKETED_NAME = /^([^[\]]+)((?:\[[^[\]]+\])+)$/;

/** Each top-level member named "a[b]" moved into member b of object a (merged with one there), as a qs-style parser nests it. */
function bracketedNamesNested(body: unknown): unknown {
  if (!isRecord(body) || !Object.keys(body).some((name) => BRACKETED_NAME.test(name))) return body;
  const result: Record<string, unknown> = Object.fromEntries(Object.entries(body).filter(([name]) => !BRACKETED_NAME.test(name)));
  for (const [name, value] of Object.entries(body)) {
    const match = BRACKETED_NAME.exec(name);
    if (!match) continue;
    const steps = [match[1]!, ...[...match[2]!.matchAll(/\[([^[\]]+)\]/g)].map((m) => m[1]!)];
    let node = result;
    for (const step of steps.slice(0, -1)) {
      node[step] = isRecord(node[step]) ? { ...node[step] } : {};
      node = node[step] as Record<string, unknown>;
    }
    node[steps.at(-1)!] = value;
  }
  return result;
}

/** connection_config.metadata without its members whose value is "" (a form's unset field) before the checks. */
function metadataEmptyValuesDropped(body: unknown): unknown {
  const config = isRecord(body) ? body.connection_config : undefined;
  const metadata = isRecord(config) ? config.metadata : undefined;
  if (!isRecord(body) || !isRecord(config) || !isRecord(metadata) || !Object.values(metadata).includes('')) return body;
  return { ...body, connection_config: { ...config, metadata: Object.fromEntries(Object.entries(metadata).filter(([, v]) => v !== '')) } };
}

/** domain_aliases_config.pending_domains' items NFC-normalised (the mapping step of IDNA processing) before the checks. */
function pendingDomainsComposed(body: unknown): unknown {
  const config = isRecord(body) ? body.domain_aliases_config : undefined;
  const domains = isRecord(config) ? config.pending_domains : undefined;
  if (!isRecord(body) || !isRecord(config) || !Array.isArray(domains)) return body;
  const composed = domains.map((d: unknown) => (typeof d === 'string' ? d.normalize('NFC') : d));
  if (composed.every((d, i) => d === domains[i])) return body;
  return { ...body, domain_aliases_config: { ...config, pending_domains: composed } };
}

/** The schema node's types (none: any). */
function typesOf(node: JsonObject | undefined): string[] {
  const type = node?.type;
  return type === undefined ? [] : Array.isArray(type) ? (type as string[]) : [type as string];
}

/**
 * A copy of a body with `edit` applied to each value at a field the schema declares (properties and
 * array items, at any depth, the body itself apart), walked alongside the schema; `edit` returns the
 * value unchanged when it does not apply.
 */
function declaredFieldsEdited(value: unknown, node: JsonObject | undefined, edit: (value: unknown, node: JsonObject) => unknown): unknown {
  if (node === undefined) return value;
  if (Array.isArray(value)) {
    const items = node.items !== null && typeof node.items === 'object' ? (node.items as JsonObject) : undefined;
    return value.map((item: unknown) => (items ? declaredFieldsEdited(edit(item, items), items, edit) : item));
  }
  if (!isRecord(value)) return value;
  const properties = (node.properties as Record<string, JsonObject> | undefined) ?? {};
  return Object.fromEntries(
    Object.entries(value).map(([name, member]): [string, unknown] => {
      const child = properties[name];
      return [name, child ? declaredFieldsEdited(edit(member, child), child, edit) : member];
    }),
  );
}

/** Changes connection_config of JSON ticket bodies before the route reads them; `edit` returns it unchanged when it does not apply. */
function editConnectionConfig(app: FaultHooks, edit: (config: Record<string, unknown>) => Record<string, unknown>): void {
  editJsonBody(app, 'sso-ticket', (body) =>
    isRecord(body) && isRecord(body.connection_config) ? { ...body, connection_config: edit(body.connection_config) } : body,
  );
}

/** Below the body, every object's required members replaced by "at least one member" (minProperties 1). */
function requiredAsNonEmpty(node: JsonObject, depth = 0): void {
  if (depth > 0 && Array.isArray(node.required)) {
    delete node.required;
    node.minProperties = 1;
  }
  const children = [...Object.values((node.properties as Record<string, JsonObject> | undefined) ?? {})];
  if (node.items !== null && typeof node.items === 'object') children.push(node.items as JsonObject);
  for (const child of children) requiredAsNonEmpty(child, depth + 1);
}

/** Edits each value at a declared field of JSON ticket bodies before the checks (see declaredFieldsEdited). */
function editDeclaredFields(app: FaultHooks, edit: (value: unknown, node: JsonObject) => unknown): void {
  editJsonBody(app, 'sso-ticket', (body) => declaredFieldsEdited(body, observedBody, edit));
}

/**
 * The digits of each integer of a JSON text beyond Number.MAX_SAFE_INTEGER, outside strings, put in
 * quotes: what a parser set to keep unsafe integers as text hands the checks.
 */
function unsafeIntegersQuoted(text: string): string {
  return text.replace(/"(?:[^"\\]|\\.)*"|(?<![\d.eE+-])-?\d+(?![.\deE])/g, (token) =>
    token.startsWith('"') || Number.isSafeInteger(Number(token)) ? token : `"${token}"`,
  );
}

/** The boolean words of the settings importer's YAML reader. */
const YAML_BOOLEANS: Record<string, boolean> = { yes: true, no: false };

/** The words of the membership table's status column, read as flags. */
const STATUS_WORDS: Record<string, boolean> = { active: true, inactive: false };

/** The object whose JSON a string is the base64url of, else undefined. */
function base64urlObject(text: string): Record<string, unknown> | undefined {
  if (!/^[A-Za-z0-9_-]+={0,2}$/.test(text)) return undefined;
  try {
    const parsed: unknown = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
    return isRecord(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** A path (no scheme, no host) resolved against the icon CDN; anything else as it is. */
function iconUrlResolved(text: string): string {
  if (!/^\/?[\w.-]+(\/[\w.-]+)*$/.test(text)) return text;
  try {
    return new URL(text, 'https://cdn.example.com/').href;
  } catch {
    return text;
  }
}

/** A form field's text as the typed decoder reads it: "true"/"false" as booleans, an integer's digits as the number. */
function typedFormValue(text: string): unknown {
  if (text === 'true' || text === 'false') return text === 'true';
  return /^-?\d+$/.test(text) && Number.isSafeInteger(Number(text)) ? Number(text) : text;
}

/** A copy of a JSON value whose strings that hold the JSON text of an object, at any depth, are that object (decoded in turn). */
function jsonTextDecoded(value: unknown): unknown {
  if (typeof value === 'string' && value.trimStart().startsWith('{')) {
    try {
      const parsed: unknown = JSON.parse(value);
      return isRecord(parsed) ? jsonTextDecoded(parsed) : value;
    } catch {
      return value;
    }
  }
  if (Array.isArray(value)) return value.map(jsonTextDecoded);
  if (!isRecord(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([name, member]) => [name, jsonTextDecoded(member)]));
}

/** Characters outside the Basic Multilingual Plane (surrogate pairs in UTF-16). */
const ASTRAL_CHARACTERS = /[\u{10000}-\u{10FFFF}]/gu;

/** Every string of a JSON value, at any depth, edited by `edit`. */
function stringsEdited(value: unknown, edit: (text: string) => string): unknown {
  if (typeof value === 'string') return edit(value);
  if (Array.isArray(value)) return value.map((item: unknown) => stringsEdited(item, edit));
  if (!isRecord(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([name, member]) => [name, stringsEdited(member, edit)]));
}

/** Lets members named as vendor extensions ("x-...") through in each nested object that refuses unknown members. */
function extensionsAllowedBelow(node: JsonObject, depth: number): void {
  if (depth > 0 && node.additionalProperties === false) node.patternProperties = { '^x-': {} };
  const items = node.items !== null && typeof node.items === 'object' ? (node.items as JsonObject) : undefined;
  if (items) extensionsAllowedBelow(items, depth + 1);
  for (const child of Object.values((node.properties as Record<string, JsonObject> | undefined) ?? {}))
    extensionsAllowedBelow(child, depth + 1);
}

/** The value with every member whose name holds "@odata." dropped, at every depth; the value itself where it has none. */
function withoutODataAnnotations(value: unknown): unknown {
  if (Array.isArray(value)) {
    const items = value.map(withoutODataAnnotations);
    return items.some((item, index) => item !== value[index]) ? items : value;
  }
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value as Record<string, unknown>);
  const kept = entries
    .filter(([name]) => !name.includes('@odata.'))
    .map(([name, member]) => [name, withoutODataAnnotations(member)] as const);
  const changed = kept.length !== entries.length || kept.some(([name, member]) => member !== (value as Record<string, unknown>)[name]);
  return changed ? Object.fromEntries(kept) : value;
}

export const ticketCreationFaults = faultFamily([
  {
    id: 'ticket-token-lifetime-refused-past-safe-integers',
    clause: 'sso-ticket.body.optional',
    bug: "Ticket creation behind a validator that refuses integers past Number.MAX_SAFE_INTEGER by default (Joi's number()): provisioning_config.token_lifetime 9007199254740994 is refused 400 instead of creating the ticket; 3600 still creates one.",
    install: (app) =>
      editJsonBody(app, 'sso-ticket', (value) => {
        const config = (value as { provisioning_config?: { token_lifetime?: unknown } } | null)?.provisioning_config;
        return typeof config?.token_lifetime === 'number' && !Number.isSafeInteger(config.token_lifetime)
          ? { ...(value as object), provisioning_config: { ...config, token_lifetime: 'unsafe' } }
          : value;
      }),
  },
  {
    id: 'organization-flag-takes-abap-true',
    clause: 'sso-ticket.body.enabled_organizations.show_as_button.type',
    bug: 'Ticket creation behind an ABAP structure whose flags are abap_bool (one character), checked against abap_true and abap_false: an organization item with show_as_button "X" creates the ticket instead of 400; "Y" is still refused.',
    install: (app) => editEachOrganization(app, (item) => (item.show_as_button === 'X' ? { ...item, show_as_button: true } : item)),
  },
  {
    id: 'ticket-body-odata-annotations-dropped',
    clause: 'sso-ticket.body.nested-rules',
    bug: 'Ticket creation behind an OData layer that drops instance annotations ("@odata.type" and the like) at every depth before the payload is checked: a body or a nested object with an "@odata.type" member creates the ticket instead of 400 for an unknown property; an "odata_type" member is still refused.',
    install: (app) => editJsonBody(app, 'sso-ticket', withoutODataAnnotations),
  },
  {
    id: 'enabled-clients-array-literal-read',
    clause: 'sso-ticket.body.enabled_clients.type',
    bug: 'Ticket creation binding enabled_clients to a Postgres text[] argument, which reads an array literal written as a string: enabled_clients "{<client id>}" creates the ticket instead of 400; a plain string is still refused.',
    install: (app) =>
      editJsonBody(app, 'sso-ticket', (value) => {
        const listed = (value as { enabled_clients?: unknown } | null)?.enabled_clients;
        const literal = typeof listed === 'string' ? /^\{(.*)\}$/.exec(listed) : null;
        return literal ? { ...(value as object), enabled_clients: literal[1]!.split(',') } : value;
      }),
  },
  {
    id: 'organization-id-parse-pointer-decoded',
    clause: 'sso-ticket.body.enabled_organizations.organization_id.type',
    bug: 'Ticket creation decoding its body with Parse Server\'s Parse._decode, which turns a Pointer into an object whose id is read: an organization_id written as {"__type": "Pointer", ..., "objectId": "org_..."} creates the ticket instead of 400; {"objectId": "org_..."} is still refused.',
    install: (app) =>
      editEachOrganization(app, (item) => {
        const id = item.organization_id;
        return isRecord(id) && id.__type === 'Pointer' ? { ...item, organization_id: id.objectId } : item;
      }),
  },
  {
    id: 'ticket-body-unicode-escapes-kept',
    clause: 'sso-ticket.body.optional',
    bug: 'Ticket creation reads its JSON with a tokenizer that leaves \\u escapes as written: a valid body whose member names and strings are spelled with \\u escapes (the same JSON text once decoded) is refused 400 for unknown members instead of creating a ticket; the same body without escapes still creates one.',
    install: (app) => jsonEscapeKept(app, 'sso-ticket', '\\u'),
  },
  {
    id: 'ticket-body-connection-read-first-only',
    clause: 'sso-ticket.body.optional',
    bug: "Ticket creation picks the body's variant from its first member (a streaming binder that awaits the discriminating property first, as Jackson's polymorphic typing did before it buffered): a valid body naming its connection (connection_id or connection_config) after another member reads the connection as null and is refused 400 instead of creating a ticket; the same body with its connection first still creates one.",
    install: (app) =>
      editJsonBody(app, 'sso-ticket', (value) => {
        if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
        const names = Object.keys(value);
        const connection = names.find((name) => CONNECTION_MEMBERS.includes(name));
        return connection === undefined || CONNECTION_MEMBERS.includes(names[0]!) ? value : { ...value, [connection]: null };
      }),
  },
  {
    id: 'ticket-replayed-by-idempotency-key-alone',
    clause: 'sso-ticket.body.ttl_sec.type',
    bug: "An idempotency layer that stores ticket creations' answers under the Idempotency-Key alone, with no fingerprint of the request: a body with ttl_sec of another type sent under the key of a created ticket is answered that ticket (201) instead of 400; without the key, 400 as before.",
    install: (app) => replayedByKeyAlone(app, 'sso-ticket'),
  },
  {
    id: 'ticket-chunked-body-length-required',
    clause: 'sso-ticket.body.optional',
    bug: 'Ticket creation behind a server that wants a length: a valid body sent chunked, with no Content-Length, is answered 411 Length Required instead of 201; the same body with its length still creates a ticket.',
    install: (app) =>
      editReplies(app, ['sso-ticket'], (reply, exchange) =>
        isChunked(exchange)
          ? { ...reply, status: 411, body: { statusCode: 411, error: 'Length Required', message: 'A Content-Length header is required' } }
          : reply,
      ),
  },
  {
    id: 'ticket-body-copied-with-assign',
    clause: 'sso-ticket.body.nested-rules',
    bug: 'Ticket creation copies the body with Object.assign({}, body) before its checks, which turns a "__proto__" member into the copy\'s prototype: a body with that unknown member gets a ticket instead of 400; a body with any other unknown member is still refused.',
    install: (app) =>
      editJsonBody(app, 'sso-ticket', (body) =>
        body !== null && typeof body === 'object' && !Array.isArray(body) ? Object.assign({}, body) : body,
      ),
  },
  {
    id: 'ticket-body-keys-kebab-case-bound',
    clause: 'sso-ticket.body.nested-rules',
    bug: 'Ticket bodies bound by a naming policy that reads kebab-case too (a relaxed binder that takes "-" for "_"): {"ttl-sec": 3600}, an unknown property, is read as ttl_sec and gets a ticket instead of 400, at every depth; a member named exactly is read as before.',
    install: (app) => editJsonBody(app, 'sso-ticket', (body) => membersRenamed(body, (name) => name.replaceAll('-', '_'), 0)),
  },
  {
    id: 'ticket-token-lifetime-empty-string-null',
    clause: 'sso-ticket.body.provisioning_config.token_lifetime.type',
    bug: 'Ticket creation binds token_lifetime to an Integer wrapper with coercion from strings turned off, but Jackson keeps the empty string as a shape of its own, read as null: provisioning_config.token_lifetime "" is read as null (no expiry) and a ticket is created instead of 400; "3600" is still refused.',
    install: (app) =>
      editMemberOfBody(app, 'provisioning_config', (config) =>
        config.token_lifetime === '' ? { ...config, token_lifetime: null } : config,
      ),
  },
  {
    id: 'ticket-provisioning-scopes-unknown-dropped',
    clause: 'sso-ticket.body.nested-rules',
    bug: 'Ticket creation reads provisioning_config.scopes into a list of an enum with unknown values read as null (READ_UNKNOWN_ENUM_VALUES_AS_NULL), then drops the nulls before the list is checked: ["get:users", "get:widgets"] creates a ticket for get:users instead of 400; ["get:widgets"] alone (empty once dropped) is still refused.',
    install: (app) =>
      editMemberOfBody(app, 'provisioning_config', (config) => {
        if (!Array.isArray(config.scopes)) return config;
        // An unknown string is read as null and dropped; another type is still a type error.
        const known = config.scopes.filter((scope) => typeof scope !== 'string' || PROVISIONING_SCOPES.includes(scope));
        return known.length === config.scopes.length || known.length === 0 ? config : { ...config, scopes: known };
      }),
  },
  {
    id: 'ticket-connection-name-unicode-digits',
    clause: 'sso-ticket.body.nested-rules',
    bug: 'Ticket creation checks connection_config.name with a pattern whose \\d matches every Unicode decimal digit (.NET\'s Regex without RegexOptions.ECMAScript): a name ending in an Arabic-Indic digit creates a ticket instead of 400; a name with "_" is still refused.',
    install: (app) =>
      editMemberOfBody(app, 'connection_config', (config) => {
        if (typeof config.name !== 'string') return config;
        const read = config.name.replace(/\p{Nd}/gu, (digit) => (/[0-9]/.test(digit) ? digit : '0'));
        return read === config.name ? config : { ...config, name: read };
      }),
  },
  {
    id: 'ticket-body-keys-decamelized',
    clause: 'sso-ticket.body.nested-rules',
    bug: 'Ticket bodies converted to snake_case by a middleware meant for JavaScript clients (humps.decamelizeKeys) before the checks: {"ttlSec": 3600}, an unknown property, is read as ttl_sec and gets a ticket instead of 400, at every depth ({"connection_config": {"displayName": ...}} alike).',
    install: (app) => editJsonBody(app, 'sso-ticket', (body) => membersRenamed(body, decamelized, 0)),
  },
  {
    id: 'ticket-nested-members-case-insensitive',
    clause: 'sso-ticket.body.nested-rules',
    bug: 'The ticket body\'s nested objects (connection_config, its options, provisioning_config, the organizations\' items...) bound by a model whose member names match without case: {"provisioning_config": {"TOKEN_LIFETIME": 3600}}, an unknown property, gets a ticket instead of 400; the body\'s own members are still matched exactly.',
    install: (app) => editJsonBody(app, 'sso-ticket', (body) => membersRenamed(body, (name) => name.toLowerCase(), 1)),
  },
  {
    id: 'organizations-merged-by-id-before-check',
    clause: 'sso-ticket.body.enabled_organizations.assign_membership_on_login.type',
    bug: 'Ticket creation merges the enabled_organizations items of one organization_id into one ({...earlier, ...later}, an upsert) before its checks: an item with assign_membership_on_login "true" followed by the same item with true gets a ticket instead of 400; the first item alone is still refused.',
    install: (app) => editJsonBody(app, 'sso-ticket', organizationsMerged),
  },
  {
    id: 'icon-url-upgraded-to-https',
    clause: 'sso-ticket.body.nested-rules',
    bug: 'Ticket creation upgrades an http icon_url to https (a helper against mixed content) before it checks the body: connection_config.options.icon_url "http://..." gets a ticket instead of the observed 400; "icon" is still refused.',
    install: (app) => editJsonBody(app, 'sso-ticket', iconUrlUpgraded),
  },
  {
    id: 'connection-name-cut-at-line-break',
    clause: 'sso-ticket.body.nested-rules',
    bug: 'Ticket creation keeps connection_config.name up to its first line break (a sanitiser against log injection, name.split("\\n")[0]) before it checks the body: a valid name, a line feed, then "not a name!" gets a ticket on the valid name instead of the observed 400; "not a name!" alone is still refused.',
    install: (app) => editJsonBody(app, 'sso-ticket', connectionNameFirstLine),
  },
  {
    id: 'ticket-bracketed-member-names-nested',
    clause: 'sso-ticket.body.nested-rules',
    bug: 'The JSON body passed through the form decoder\'s qs-style nesting before its checks (shared code): a member "provisioning_config[token_lifetime]": 3600 is read as provisioning_config.token_lifetime and gets a ticket instead of the observed 400 (an unknown member); "provisioning_config[x]": 3600 is still refused.',
    install: (app) => editJsonBody(app, 'sso-ticket', bracketedNamesNested),
  },
  {
    id: 'metadata-empty-values-not-counted',
    clause: 'sso-ticket.body.nested-rules',
    bug: `connection_config.metadata's members with the value "" dropped before the checks (an unset field of the dashboard's form), so its limit of ${METADATA_MAX} members counts the rest: ${METADATA_MAX} values and one "" get a ticket instead of the observed 400; ${METADATA_MAX + 1} non-empty values are still refused.`,
    install: (app) => editJsonBody(app, 'sso-ticket', metadataEmptyValuesDropped),
  },
  {
    id: 'pending-domains-length-after-nfc',
    clause: 'sso-ticket.body.nested-rules',
    bug: `domain_aliases_config.pending_domains' items NFC-normalised before the checks (the mapping step of IDNA processing, done first), so their ${PENDING_DOMAIN_MAX}-character maximum is counted on the composed text: ${PENDING_DOMAIN_MAX - 1} letters, an e and a combining acute accent (${PENDING_DOMAIN_MAX + 1} code points) get a ticket instead of the observed 400; ${PENDING_DOMAIN_MAX + 1} letters are still refused.`,
    install: (app) => editJsonBody(app, 'sso-ticket', pendingDomainsComposed),
  },
  {
    id: 'ticket-unsafe-integers-kept-as-text',
    clause: 'sso-ticket.body.enabled_clients.type',
    bug: 'Ticket bodies parsed with the option of a lossless JSON parser that keeps each integer beyond Number.MAX_SAFE_INTEGER as its digits (a string), so that ids of all digits keep them: enabled_clients holding a JSON integer of 32 digits, a number, reaches the checks as a string of digits (a well-formed client id) and gets a ticket instead of 400; an integer of 15 digits is still refused.',
    install: (app) => editTicketText(app, isJsonMediaType, unsafeIntegersQuoted),
  },
  {
    id: 'ticket-nested-json-text-decoded',
    clause: 'sso-ticket.body.provisioning_config.type',
    bug: 'Every string member of the ticket body that holds the JSON text of an object, at any depth, decoded before the checks (a helper for clients that encode nested objects twice): a provisioning_config of "{\\"scopes\\": [\\"get:users\\"]}", a string, gets a ticket instead of 400; a provisioning_config of "get:users" is still refused.',
    install: (app) => editJsonBody(app, 'sso-ticket', (body) => (isRecord(body) ? jsonTextDecoded(body) : body)),
  },
  {
    id: 'ticket-object-fields-from-form-text',
    clause: 'sso-ticket.body.enabled_features.type',
    bug: 'An object field given as a string read as form fields (the dashboard\'s settings serialised with URLSearchParams, booleans and integers decoded), at any depth: an enabled_features of "sso=true&domain_verification=false", a string, is read as the object and gets a ticket instead of 400; "sso" (a member without a value) is still refused.',
    install: (app) =>
      editDeclaredFields(app, (value, node) =>
        typeof value === 'string' && value.includes('=') && typesOf(node).includes('object')
          ? Object.fromEntries([...new URLSearchParams(value)].map(([name, text]) => [name, typedFormValue(text)]))
          : value,
      ),
  },
  {
    id: 'ticket-form-body-checked-by-contract-schema',
    clause: 'sso-ticket.body.nested-rules',
    bug: "The form-encoded ticket body checked by the spec's published schema, not the service's own (the form handler kept an older generated validator, which lets unknown members through): third_party_client_access_config=x, form-encoded, gets a ticket instead of the observed 400; the same member as a string in JSON is still refused.",
    install(app) {
      app.override('validators', (validators) => {
        checksOf(validators, 'sso-ticket').formBody = compileFormBody(schema('SsoTicketRequest', 'contract'));
        return validators;
      });
    },
  },
  {
    id: 'display-name-measured-percent-decoded',
    clause: 'sso-ticket.body.nested-rules',
    bug: 'connection_config.display_name percent-decoded before its length is checked (the text the login page will show): a display_name two characters over its maximum that holds a "%20" gets a ticket instead of 400; one over its maximum without an escape is still refused.',
    install: (app) =>
      editConnectionConfig(app, (config) => {
        if (typeof config.display_name !== 'string' || !config.display_name.includes('%')) return config;
        try {
          return { ...config, display_name: decodeURIComponent(config.display_name) };
        } catch {
          return config;
        }
      }),
  },
  {
    id: 'authorizequery-measured-without-tags',
    clause: 'sso-ticket.body.nested-rules',
    bug: 'connection_config.options.idpinitiated.client_authorizequery run through an HTML sanitiser (no tags allowed) before its length is checked: the query at its maximum length inside "<b>...</b>" gets a ticket instead of 400; one over its maximum without tags is still refused.',
    install: (app) =>
      editConnectionConfig(app, (config) => {
        const options = isRecord(config.options) ? config.options : undefined;
        const idp = options && isRecord(options.idpinitiated) ? options.idpinitiated : undefined;
        const query = idp?.client_authorizequery;
        if (!options || !idp || typeof query !== 'string' || !/<[^>]*>/.test(query)) return config;
        return { ...config, options: { ...options, idpinitiated: { ...idp, client_authorizequery: query.replace(/<[^>]*>/g, '') } } };
      }),
  },
  {
    id: 'domain-aliases-wildcard-label-not-counted',
    clause: 'sso-ticket.body.nested-rules',
    bug: 'connection_config.options.domain_aliases items measured without a leading "*." (a wildcard\'s first label, which the DNS checker takes off): an item one over its maximum starting with "*." gets a ticket instead of 400; one over its maximum starting with "." is still refused.',
    install: (app) =>
      editConnectionConfig(app, (config) => {
        const options = isRecord(config.options) ? config.options : undefined;
        const aliases = options?.domain_aliases;
        if (!options || !Array.isArray(aliases) || !aliases.some((a) => typeof a === 'string' && a.startsWith('*.'))) return config;
        return {
          ...config,
          options: {
            ...options,
            domain_aliases: aliases.map((a: unknown) => (typeof a === 'string' && a.startsWith('*.') ? a.slice(2) : a)),
          },
        };
      }),
  },
  {
    id: 'connection-id-prefix-ensured',
    clause: 'sso-ticket.body.nested-rules',
    bug: 'connection_id passed through an ensurePrefix("con_") helper before its format check, for ids pasted without their type: a connection_id without "con_" gets a ticket instead of the observed 400; one of another type\'s prefix ("org_...") is still refused.',
    install: (app) =>
      editJsonBody(app, 'sso-ticket', (body) =>
        isRecord(body) && typeof body.connection_id === 'string' && /^[A-Za-z0-9]+$/.test(body.connection_id)
          ? { ...body, connection_id: `${observed.identifiers.connection.prefix}${body.connection_id}` }
          : body,
      ),
  },
  {
    id: 'connection-config-existing-name-copied',
    clause: 'sso-ticket.body.connection_config.type',
    bug: 'A string connection_config that names an existing connection read as "configure like that one" (the dashboard\'s duplicate action), a new connection named after it: connection_config "<an existing connection\'s name>" gets a ticket instead of 400; a string that names no connection is still refused.',
    install(app) {
      const store = capture(app, 'store');
      editJsonBody(app, 'sso-ticket', (body) =>
        isRecord(body) && typeof body.connection_config === 'string' && store().connectionNameTaken(body.connection_config)
          ? { ...body, connection_config: { name: `${body.connection_config}-2` } }
          : body,
      );
    },
  },
  {
    id: 'ticket-nested-extension-members-allowed',
    clause: 'sso-ticket.body.nested-rules',
    bug: 'The nested objects of the ticket body checked by schemas generated with OpenAPI\'s vendor extensions kept (patternProperties "^x-"): {"provisioning_config": {"x-origin": "cli", ...}}, an unknown member, gets a ticket instead of the observed 400; a member "origin" is still refused, and so is an "x-" member of the body itself.',
    install: (app) => editBodySchema(app, 'sso-ticket', (body) => extensionsAllowedBelow(body, 0)),
  },
  {
    id: 'ticket-string-lengths-in-code-units',
    clause: 'sso-ticket.body.nested-rules',
    bug: "The maximum lengths of the ticket body's declared string fields checked on String.length, which counts UTF-16 code units, where JSON Schema's maxLength counts characters (code points): a connection_config.display_name of 100 emoji (200 code units) is refused 400 instead of getting a ticket; 129 letters are still refused.",
    install: (app) =>
      editDeclaredFields(app, (value, node) =>
        typeof value === 'string' && typeof node.maxLength === 'number' && value.length > node.maxLength
          ? 'x'.repeat(node.maxLength + 1)
          : value,
      ),
  },
  {
    id: 'ticket-astral-characters-dropped-before-checks',
    clause: 'sso-ticket.body.nested-rules',
    bug: 'Every string of the ticket body stripped of its characters outside the Basic Multilingual Plane before the checks (a sanitiser for a three-byte utf8 column), so its length is counted without them: a connection_config.display_name of 129 emoji, one over its maximum, is read as "" and gets a ticket instead of the observed 400; 129 letters are still refused.',
    install: (app) => editJsonBody(app, 'sso-ticket', (body) => stringsEdited(body, (text) => text.replace(ASTRAL_CHARACTERS, ''))),
  },
  {
    id: 'ticket-lists-checked-up-to-ten',
    clause: 'sso-ticket.body.enabled_clients.type',
    bug: `Ticket creation checks the items of its lists up to the ${ITEMS_CHECKED}th only (a cap meant to bound a check's work): a list whose ${ITEMS_CHECKED + 1}th or later item is of another type gets a ticket instead of 400; the same item first in the list is still refused.`,
    install: (app) => editJsonBody(app, 'sso-ticket', listsCut),
  },
  {
    id: 'ticket-codes-base64url-after-the-first',
    clause: 'sso-ticket.response.shape',
    bug: 'Ticket codes moved to the token service\'s generator, which writes base64url, with the first code of the process still made by the old one while the new one warmed up: every ticket after the first has a code of 32 characters holding "_", no longer 32 alphanumerics.',
    install: (app) =>
      app.override('ticketCodes', (first) => {
        let made = 0;
        return () => {
          made += 1;
          return made === 1 ? first() : `${first().slice(0, 31)}_`;
        };
      }),
  },
  {
    id: 'ticket-content-type-text-html',
    clause: 'sso-ticket.response.content-type',
    bug: "The serialized ticket sent as a string through a writer that defaults to HTML (as Express's res.send does): ticket creation answers with content type text/html; charset=utf-8 instead of application/json (the body is still JSON).",
    install: (app) => editSuccessReplies(app, 'sso-ticket', (reply) => withContentType(reply, 'text/html; charset=utf-8')),
  },
  {
    id: 'ticket-code-instead-of-url',
    clause: 'sso-ticket.response.ticket',
    bug: 'The bare ticket code answered, leaving the client to know where the flow lives: the ticket field is not a URL (so the observed URL shape and custom-domain host go too).',
    install: (app) => editTicketBody(app, ({ ticket }) => ({ ticket: new URL(ticket).searchParams.get(observed.ticket.query_parameter) })),
  },
  {
    id: 'ticket-url-over-http',
    clause: 'sso-ticket.response.shape',
    bug: 'A server behind a TLS-terminating proxy that builds the URL from the scheme it sees: the ticket URL starts with http:// instead of https://.',
    install: (app) => editTicketBody(app, ({ ticket }) => ({ ticket: ticket.replace(/^https:/, 'http:') })),
  },
  {
    id: 'custom-domain-ticket-default-port',
    clause: 'sso-ticket.custom-domain.host',
    bug: "Custom-domain tickets built from the domain's stored origin record, which keeps the https port (https://login.partner.example:443/...): the ticket URL names the default port explicitly, which a URL parser reads as the same host; tickets on the tenant's own host are still written without a port.",
    install: (app) =>
      editSuccessReplies(app, 'sso-ticket', (reply, exchange) => {
        const ticket = (reply.body as { ticket?: unknown } | undefined)?.ticket;
        if (typeof ticket !== 'string' || !exchange.headers['tenant-custom-domain']) return reply;
        return { ...reply, body: { ticket: ticket.replace(/^(https:\/\/[^/:]+)\//, '$1:443/') } };
      }),
  },
  {
    id: 'ticket-host-from-forwarded-header',
    clause: 'sso-ticket.response.shape',
    bug: "The ticket's host taken first from RFC 7239's Forwarded header (host=) when a request carries one, for deployments behind a proxy, and never checked against the tenant: a request that carries Forwarded: host=proxy.example gets a ticket on proxy.example instead of the tenant's host (or its custom domain); without Forwarded the ticket is where it should be.",
    install: (app) =>
      editRequests(app, 'sso-ticket', (exchange) => {
        const forwarded = exchange.headers.forwarded;
        const host = typeof forwarded === 'string' ? /(?:^|[;,\s])host="?([^;,"\s]+)/i.exec(forwarded)?.[1] : undefined;
        return host === undefined ? exchange : { ...exchange, headers: { ...exchange.headers, 'tenant-custom-domain': host } };
      }),
  },
  {
    id: 'ticket-ignores-custom-domain',
    clause: 'sso-ticket.custom-domain.host',
    bug: "A server that validates tenant-custom-domain and then builds the ticket URL from the tenant's own domain anyway: the URL is on the tenant's domain even when the header names another.",
    install(app) {
      const tenant = capture(app, 'tenant');
      editTicketBody(app, ({ ticket }) => {
        const url = new URL(ticket);
        url.host = tenant().domain;
        return { ticket: url.toString() };
      });
    },
  },
  {
    id: 'ticket-custom-domain-spliced-into-caller-origin',
    clause: 'sso-ticket.custom-domain.host',
    bug: "The custom-domain ticket made from the origin the caller's token names, its host name replaced by text (origin.replace(hostname, domain)): a caller whose token names the tenant at an address with a port gets the ticket on <domain>:<port>; a caller of the canonical host gets the domain.",
    install: (app) =>
      editSuccessReplies(app, 'sso-ticket', (reply, exchange) => {
        const ticket = new URL((reply.body as { ticket: string }).ticket);
        const origin = callerOrigin(exchange.headers.authorization);
        if (origin === undefined || origin.port === '' || !exchange.headers['tenant-custom-domain']) return reply;
        const spliced = `https://${origin.host.replace(origin.hostname, ticket.hostname)}${ticket.pathname}${ticket.search}`;
        return { ...reply, body: { ticket: spliced } };
      }),
  },
  {
    id: 'ticket-refuses-empty-body',
    clause: 'sso-ticket.body.optional',
    bug: 'A validator that wants at least one field where every field is optional: ticket creation refuses {} with 400 (so every test that creates a ticket with {} fails).',
    install: (app) =>
      editBodySchema(app, 'sso-ticket', (body) => {
        body.minProperties = 1;
      }),
  },
  {
    id: 'ticket-requires-enabled-features-with-connection-id',
    clause: 'sso-ticket.body.optional',
    bug: '"enabled_features applies only with connection_id" read backwards: ticket creation refuses a body with connection_id but without enabled_features with 400, though every field is optional.',
    install: (app) =>
      editBodySchema(app, 'sso-ticket', (body) => {
        body.dependentRequired = { connection_id: ['enabled_features'] };
      }),
  },
  {
    id: 'ticket-null-body-as-empty',
    clause: 'sso-ticket.body.object',
    bug: 'A body read as `JSON.parse(text) ?? {}`: ticket creation takes a body of JSON null for an empty object and creates a ticket.',
    install: (app) => editJsonBody(app, 'sso-ticket', (value) => value ?? {}),
  },
  {
    id: 'ticket-array-body-as-empty',
    clause: 'sso-ticket.body.object',
    bug: "A body checked with `typeof body === 'object'`, then read field by field: ticket creation takes an array, which has none of the fields, for an empty object and creates a ticket.",
    install: (app) => editJsonBody(app, 'sso-ticket', (value) => (Array.isArray(value) ? {} : value)),
  },
  {
    id: 'ticket-batch-body-first-record',
    clause: 'sso-ticket.body.object',
    bug: 'The body read by the import helper, which takes a list of records and handles the first when its first item is an object: [{}] (or a list holding any valid body, before more items) gets a ticket instead of 400; [] and ["x"] are still refused.',
    install: (app) => editJsonBody(app, 'sso-ticket', (value) => (Array.isArray(value) && isRecord(value[0]) ? value[0] : value)),
  },
  {
    id: 'ticket-body-envelope-unwrapped',
    clause: 'sso-ticket.body.nested-rules',
    bug: 'The body read by the shared request reader, which unwraps an envelope (an object whose one member is "data" and holds an object, as the JSON:API clients send): {"data": <a valid body>} gets a ticket instead of 400; {"data": 1} and {"payload": <a valid body>} are still refused.',
    install: (app) =>
      editJsonBody(app, 'sso-ticket', (value) =>
        isRecord(value) && Object.keys(value).length === 1 && isRecord(value.data) ? value.data : value,
      ),
  },
  {
    id: 'ticket-avro-array-branch-unwrapped',
    clause: 'sso-ticket.body.enabled_clients.type',
    bug: 'The body read through a bridge that also takes Avro\'s JSON encoding of a union, {"<branch>": value}, for the lists it declares as ["null", {"type": "array"}]: enabled_clients {"array": ["<client id>"]} creates the ticket instead of 400; {"list": [...]} is still refused.',
    install: (app) =>
      editTicketField(app, 'enabled_clients', (value) =>
        isRecord(value) && Object.keys(value).length === 1 && Array.isArray(value.array) ? value.array : value,
      ),
  },
  {
    id: 'ticket-features-from-a-list-of-names',
    clause: 'sso-ticket.body.enabled_features.type',
    bug: 'enabled_features read through an adapter for a set of feature names (a Thrift or protobuf set written as a JSON list): ["sso", "provisioning"] is read as {"sso": true, "provisioning": true} (domain_verification too) and the ticket created instead of 400; a list naming another feature is still refused.',
    install: (app) =>
      editTicketField(app, 'enabled_features', (value) =>
        Array.isArray(value) && value.length > 0 && value.every((name) => FEATURE_NAMES.includes(name))
          ? Object.fromEntries(value.map((name) => [name, true]))
          : value,
      ),
  },
  {
    id: 'ticket-accepts-unknown-nested-properties',
    clause: 'sso-ticket.body.nested-rules',
    bug: 'A validator that refuses unknown properties at the top of the request only: ticket creation accepts them inside the nested objects (enabled_organizations items, domain_aliases_config, provisioning_config, enabled_features).',
    install: (app) => editBodySchema(app, 'sso-ticket', allowUnknownBelow),
  },
  {
    id: 'ticket-duplicate-members-first-wins',
    clause: 'errors.400.body',
    bug: 'The ticket body read by a streaming JSON parser that ignores a member name it has already seen, where the real service (JSON.parse) keeps the last: a member given twice, valid and then out of bounds or of another type, at any depth, is read as the valid one and the ticket created instead of 400 (and the reverse refused).',
    install: (app) =>
      editTicketText(app, isJsonMediaType, (text) => {
        try {
          JSON.parse(text);
        } catch {
          return text;
        }
        return JSON.stringify(parseKeepingFirst(text));
      }),
  },
  {
    id: 'ticket-json-cut-after-last-brace',
    clause: 'errors.400.body',
    bug: 'An object body cut after its last "}" before it is parsed (a workaround for clients that pad bodies with a stray newline or NUL): the valid body followed by " x" gets a ticket instead of the observed 400 for a body that is not JSON; a body cut short is still refused.',
    install: (app) =>
      editTicketText(app, isJsonMediaType, (text) =>
        text.trimStart().startsWith('{') && text.includes('}') ? text.slice(0, text.lastIndexOf('}') + 1) : text,
      ),
  },
  {
    id: 'ticket-form-integer-read-with-parsefloat',
    clause: 'sso-ticket.body.ttl_sec.type',
    bug: 'Form-encoded ticket bodies convert their integer fields with Number.parseFloat, which stops at the first character it cannot read: ttl_sec=3600s is taken for 3600 and the ticket created instead of 400; 3600.5 is still refused (not an integer), and so is 3600s in JSON.',
    install: (app) =>
      editTicketText(app, isFormMediaType, (text) => {
        const form = new URLSearchParams(text);
        for (const field of INTEGER_FIELDS) {
          const read = Number.parseFloat(form.get(field) ?? '');
          if (!Number.isNaN(read)) form.set(field, String(read));
        }
        return form.toString();
      }),
  },
  {
    id: 'ticket-form-empty-fields-dropped',
    clause: 'sso-ticket.body.nested-rules',
    bug: "Form-encoded ticket bodies passed through a middleware that turns each empty field into null and a rule that drops null fields as not given (Laravel's ConvertEmptyStringsToNull with 'sometimes|nullable'): ttl_sec= or use_for_organization_discovery= gets a ticket instead of the observed 400; ttl_sec=x is still refused.",
    install: (app) =>
      editTicketText(app, isFormMediaType, (text) =>
        new URLSearchParams([...new URLSearchParams(text)].filter(([, value]) => value !== '')).toString(),
      ),
  },
  {
    id: 'ticket-object-field-from-entries',
    clause: 'sso-ticket.body.enabled_features.type',
    bug: 'enabled_features normalised with a helper that also takes a Map serialised as its entries (Object.fromEntries on an array of pairs): [["sso", true]], an array, is read as {"sso": true} and the ticket created instead of 400.',
    install: (app) =>
      editTicketField(app, 'enabled_features', (features) =>
        Array.isArray(features) && features.length > 0 && features.every((e) => Array.isArray(e) && e.length === 2)
          ? Object.fromEntries(features as Array<[string, unknown]>)
          : features,
      ),
  },
  {
    id: 'ticket-array-like-organizations',
    clause: 'sso-ticket.body.enabled_organizations.type',
    bug: 'enabled_organizations read with Array.prototype.slice.call, which takes any object with a length for a list: {"length": 1, "0": {...}}, an object, is read as a list of that organization and the ticket created instead of 400.',
    install: (app) =>
      editTicketField(app, 'enabled_organizations', (list) =>
        isRecord(list) && typeof list.length === 'number' ? (Array.prototype.slice.call(list) as unknown[]) : list,
      ),
  },
  {
    id: 'ticket-organizations-from-id-map',
    clause: 'sso-ticket.body.enabled_organizations.type',
    bug: 'enabled_organizations accepted as a hash of organization ids (each value turned into an item with its key put back as organization_id, as a form library does with nested params): {"org_...": {...}}, an object, creates the ticket instead of 400.',
    install: (app) =>
      editTicketField(app, 'enabled_organizations', (list) =>
        isRecord(list) && Object.keys(list).length > 0 && Object.values(list).every(isRecord)
          ? Object.entries(list).map(([organization_id, item]) => ({ ...(item as object), organization_id }))
          : list,
      ),
  },
  {
    id: 'ticket-scopes-checked-with-in',
    clause: 'sso-ticket.body.nested-rules',
    bug: 'provisioning_config.scopes items checked with "scope in ALLOWED_SCOPES", an object literal of the allowed scopes, and the in operator also finds what an object inherits: ["toString"] or ["constructor"] is accepted as a scope instead of 400.',
    install: (app) =>
      editBodySchema(app, 'sso-ticket', (body) => {
        const items = fieldNode(body, 'provisioning_config.scopes').items as JsonObject;
        items.enum = [...(items.enum as string[]), ...Object.getOwnPropertyNames(Object.prototype)];
      }),
  },
  {
    id: 'ticket-scopes-resource-wildcard-expanded',
    clause: 'sso-ticket.body.nested-rules',
    bug: 'provisioning_config.scopes passed through the role editor\'s expansion of "*:<resource>" into every allowed scope on that resource before the check: scopes ["*:users"] gets a ticket instead of 400; ["*:everything"] is still refused.',
    install: (app) =>
      editBodySchema(app, 'sso-ticket', (body) => {
        const items = fieldNode(body, 'provisioning_config.scopes').items as JsonObject;
        const allowed = items.enum as string[];
        const resources = [...new Set(allowed.map((scope) => scope.slice(scope.indexOf(':') + 1)))];
        items.enum = [...allowed, ...resources.map((resource) => `*:${resource}`)];
      }),
  },
  {
    id: 'ticket-known-properties-checked-with-in',
    clause: 'sso-ticket.body.nested-rules',
    bug: 'Unknown properties of the nested objects found with "!(name in KNOWN)", a plain object of the known names, so a property named as one every object inherits ("constructor", "toString") passes as known and the ticket is created instead of 400.',
    install: (app) =>
      editBodySchema(app, 'sso-ticket', (body) => {
        for (const child of Object.values(body.properties as Record<string, JsonObject>)) {
          const node = child.items !== undefined && typeof child.items === 'object' ? (child.items as JsonObject) : child;
          if (node.properties) node.properties = { ...(node.properties as JsonObject), constructor: {}, toString: {} };
        }
      }),
  },
  {
    id: 'ticket-string-lists-from-checkbox-maps',
    clause: 'sso-ticket.body.enabled_clients.type',
    bug: 'A list of strings given as an object of booleans, at any depth, read as the dashboard\'s checkbox set (Object.keys(map).filter((name) => map[name])): an enabled_clients of {"<client id>": true}, an object, is read as the list of that client and gets a ticket instead of 400; an enabled_clients of "<client id>" is still refused.',
    install: (app) =>
      editDeclaredFields(app, (value, node) =>
        isRecord(value) &&
        Object.keys(value).length > 0 &&
        Object.values(value).every((checked) => typeof checked === 'boolean') &&
        typesOf(node).includes('array') &&
        typesOf(node.items as JsonObject).includes('string')
          ? Object.keys(value).filter((name) => value[name])
          : value,
      ),
  },
  {
    id: 'ticket-flags-read-as-yaml-words',
    clause: 'sso-ticket.body.use_for_organization_discovery.type',
    bug: 'Boolean fields given as a string read with the boolean words of YAML 1.1 (the settings importer\'s reader, shared): use_for_organization_discovery "yes" (or "no") gets a ticket instead of 400; "maybe" is still refused.',
    install: (app) =>
      editDeclaredFields(app, (value, node) =>
        typeof value === 'string' && typesOf(node).includes('boolean') && Object.hasOwn(YAML_BOOLEANS, value.toLowerCase())
          ? YAML_BOOLEANS[value.toLowerCase()]
          : value,
      ),
  },
  {
    id: 'ticket-flags-read-as-status-words',
    clause: 'sso-ticket.body.enabled_organizations.show_as_button.type',
    bug: 'Boolean fields given as a string read as the membership table\'s status words, at any depth: an enabled_organizations item whose show_as_button is "active" (or "inactive") gets a ticket instead of 400; "true" and "yes" are still refused.',
    install: (app) =>
      editDeclaredFields(app, (value, node) =>
        typeof value === 'string' && typesOf(node).includes('boolean') && Object.hasOwn(STATUS_WORDS, value) ? STATUS_WORDS[value] : value,
      ),
  },
  {
    id: 'ticket-flag-objects-from-name-lists',
    clause: 'sso-ticket.body.enabled_features.type',
    bug: 'An object of flags given as a string read as the space-separated names of the flags it sets (the old SDK\'s "features" option), at any depth: enabled_features "sso domain_verification provisioning" gets a ticket instead of 400; "sso,provisioning" and "everything" are still refused.',
    install: (app) =>
      editDeclaredFields(app, (value, node) => {
        const flags = Object.keys((node.properties as JsonObject | undefined) ?? {});
        if (typeof value !== 'string' || !typesOf(node).includes('object') || flags.length === 0) return value;
        const names = value.split(' ');
        return names.every((name) => flags.includes(name)) ? Object.fromEntries(names.map((name) => [name, true])) : value;
      }),
  },
  {
    id: 'ticket-string-lists-split-on-commas',
    clause: 'sso-ticket.body.provisioning_config.scopes.type',
    bug: 'A list of strings given as a string holding a comma read as a CSV cell (split on ",", each part trimmed), at any depth: provisioning_config.scopes "get:users,post:users" gets a ticket instead of 400; "get:users" alone is still refused.',
    install: (app) => stringListsSplitOn(app, ',', (part) => part.trim()),
  },
  {
    id: 'ticket-string-lists-split-on-pipes',
    clause: 'sso-ticket.body.enabled_clients.type',
    bug: 'A list of strings given as a string holding a "|" read as the admin console\'s multi-select column (split on "|"), at any depth: enabled_clients "<id>|<id>" gets a ticket instead of 400; "<id>,<id>" and "<id>" alone are still refused.',
    install: (app) => stringListsSplitOn(app, '|', (part) => part),
  },
  {
    id: 'ticket-string-lists-split-on-semicolons',
    clause: 'sso-ticket.body.nested-rules',
    bug: 'A list of strings given as a string holding a ";" read as a mail client\'s address line (split on ";", each part trimmed), at any depth: domain_aliases_config.pending_domains "login.example.com;login.example.com" gets a ticket instead of 400; a single domain as a string is still refused.',
    install: (app) => stringListsSplitOn(app, ';', (part) => part.trim()),
  },
  {
    id: 'ticket-strings-nfkc-normalised',
    clause: 'sso-ticket.body.nested-rules',
    bug: 'Every string of the ticket body NFKC-normalised before the checks, at any depth (a sanitiser against look-alike characters): a connection_id, organization_id or enum value with a fullwidth letter, a superscript digit, a ligature or the Kelvin sign in place of its character gets a ticket instead of 400, read as the valid value; a value that is wrong once normalised is still refused.',
    install: (app) => editDeclaredFields(app, (value) => (typeof value === 'string' ? value.normalize('NFKC') : value)),
  },
  {
    id: 'ticket-object-fields-from-base64url',
    clause: 'sso-ticket.body.domain_aliases_config.type',
    bug: 'An object field given as a string decoded as base64url JSON where it decodes to an object (the settings share link carries them so), at any depth: a domain_aliases_config of the base64url of its JSON, a string, gets a ticket instead of 400; "x" is still refused.',
    install: (app) =>
      editDeclaredFields(app, (value, node) =>
        typeof value === 'string' && typesOf(node).includes('object') ? (base64urlObject(value) ?? value) : value,
      ),
  },
  {
    id: 'ticket-required-members-as-nonempty',
    clause: 'sso-ticket.body.nested-rules',
    bug: 'The nested objects\' required members compiled by the schema generator as "not empty" (minProperties 1, required dropped): domain_aliases_config {"pending_domains": ["login.example.com"]} (or an enabled_organizations item without organization_id, or a google_workspace without sync_users) gets a ticket instead of 400; {"domain_aliases_config": {}} is still refused.',
    install: (app) => editBodySchema(app, 'sso-ticket', requiredAsNonEmpty),
  },
  {
    id: 'ticket-metadata-keys-merged-case-insensitively',
    clause: 'sso-ticket.body.nested-rules',
    bug: 'connection_config.metadata merged into the case-insensitive settings map before it is checked, names lower-cased and the later value kept: eleven keys, two of which differ only in case ("key0", "KEY0"), become ten and get a ticket instead of 400; eleven distinct keys are still refused.',
    install: (app) =>
      editConnectionConfig(app, (config) =>
        isRecord(config.metadata)
          ? { ...config, metadata: Object.fromEntries(Object.entries(config.metadata).map(([key, value]) => [key.toLowerCase(), value])) }
          : config,
      ),
  },
  {
    id: 'ticket-display-name-blanks-squeezed',
    clause: 'sso-ticket.body.nested-rules',
    bug: "connection_config.display_name passed through the dashboard's label formatter, which squeezes each run of spaces and tabs to one space, before its length is checked: 129 characters holding two spaces get a ticket instead of 400; 129 letters are still refused.",
    install: (app) =>
      editConnectionConfig(app, (config) =>
        typeof config.display_name === 'string' ? { ...config, display_name: config.display_name.replace(/[ \t]+/g, ' ') } : config,
      ),
  },
  {
    id: 'ticket-organization-id-dashes-dropped',
    clause: 'sso-ticket.body.nested-rules',
    bug: 'enabled_organizations[].organization_id with its dashes dropped before its format is checked (ids copied from the admin console, which shows them in groups of four): "org_-5GRc-ny9K-..." gets a ticket instead of 400; "org_5GRc!..." is still refused.',
    install: (app) =>
      editJsonBody(app, 'sso-ticket', (body) =>
        isRecord(body) && Array.isArray(body.enabled_organizations)
          ? {
              ...body,
              enabled_organizations: body.enabled_organizations.map((item: unknown) =>
                isRecord(item) && typeof item.organization_id === 'string'
                  ? { ...item, organization_id: item.organization_id.replaceAll('-', '') }
                  : item,
              ),
            }
          : body,
      ),
  },
  {
    id: 'ticket-connection-name-hostname-normalised',
    clause: 'sso-ticket.body.nested-rules',
    bug: 'connection_config.name normalised as a host label before its pattern is checked (dots and spaces to hyphens, lower-cased): a name "conformance.suite.flow" (or with spaces) gets a ticket instead of 400; "conformance_suite_flow" is still refused.',
    install: (app) =>
      editConnectionConfig(app, (config) =>
        typeof config.name === 'string' ? { ...config, name: config.name.replace(/[. ]/g, '-').toLowerCase() } : config,
      ),
  },
  {
    id: 'icon-url-relative-to-cdn',
    clause: 'sso-ticket.body.nested-rules',
    bug: 'connection_config.options.icon_url without a scheme resolved against the icon CDN before the check (new URL(value, "https://cdn.example.com/"), for uploads named by their path): an icon_url "icon.png" or "/icons/a.png" gets a ticket instead of the observed 400; "http://cdn.example.com/icon.png" is still refused.',
    install: (app) =>
      editDeclaredFields(app, (value, node) =>
        typeof value === 'string' && node.format === 'strict-https-uri' ? iconUrlResolved(value) : value,
      ),
  },
  {
    id: 'pending-domains-leading-dot-dropped',
    clause: 'sso-ticket.body.nested-rules',
    bug: `domain_aliases_config.pending_domains' items given in cookie notation (".example.com") have the leading dot dropped before their length is counted: a "." and ${PENDING_DOMAIN_MAX} letters (${PENDING_DOMAIN_MAX + 1} characters) get a ticket instead of the observed 400; ${PENDING_DOMAIN_MAX + 1} letters are still refused.`,
    install: (app) =>
      editJsonBody(app, 'sso-ticket', (body) =>
        isRecord(body) && isRecord(body.domain_aliases_config) && Array.isArray(body.domain_aliases_config.pending_domains)
          ? {
              ...body,
              domain_aliases_config: {
                ...body.domain_aliases_config,
                pending_domains: body.domain_aliases_config.pending_domains.map((item: unknown) =>
                  typeof item === 'string' ? item.replace(/^\./, '') : item,
                ),
              },
            }
          : body,
      ),
  },
  {
    id: 'ticket-ignores-taken-connection-name',
    clause: 'sso-ticket.errors.409.name-taken',
    bug: 'A server that leaves the name clash to when the flow runs: ticket creation accepts a connection_config naming an existing connection instead of answering 409.',
    install: (app) => editStore(app, () => ({ connectionNameTaken: () => false })),
  },
  {
    id: 'connection-options-empty-string-as-null',
    clause: 'sso-ticket.body.nested-rules',
    bug: 'connection_config.options bound by a mapper that reads "" for an object as null (Jackson\'s ACCEPT_EMPTY_STRING_AS_NULL_OBJECT), and options may be null: an options of "" gets a ticket instead of the observed 400; an options of "x" is still refused.',
    install: (app) => editConnectionConfig(app, (config) => (config.options === '' ? { ...config, options: null } : config)),
  },
  {
    id: 'ticket-json-sniffed-by-first-character',
    clause: 'sso-ticket.body.optional',
    bug: 'The JSON ticket body let through to the parser only when its first character is "{" (a sniff without trimLeft): a body " {}" or "\\t{}", with JSON whitespace before the object (RFC 8259 2), is refused 400 as malformed instead of creating a ticket; "{}" followed by a line feed creates one as before.',
    install: (app) =>
      editRequests(app, 'sso-ticket', (exchange) => {
        if (!isJsonMediaType(exchange.headers['content-type'])) return exchange;
        const text = exchange.body.toString('utf8');
        if (text.trim() === '' || text.startsWith('{') || !text.trim().startsWith('{')) return exchange;
        // What the parser is handed when the sniff fails: a text JSON.parse refuses.
        return { ...exchange, body: Buffer.concat([exchange.body, Buffer.from([0])]) };
      }),
  },
  {
    id: 'connection-metadata-lists-joined',
    clause: 'sso-ticket.body.nested-rules',
    bug: 'connection_config.metadata values that are lists of strings joined with "," before they are checked (a store of one string per key, "a,b"): a metadata of {"teams": ["payments", "billing"]} gets a ticket instead of the observed 400; {"teams": [1, 2]} is still refused.',
    install: (app) =>
      editConnectionConfig(app, (config) => {
        const metadata = config.metadata;
        if (!isRecord(metadata) || !Object.values(metadata).some(isStringList)) return config;
        return {
          ...config,
          metadata: Object.fromEntries(
            Object.entries(metadata).map(([key, value]) => [key, isStringList(value) ? value.join(',') : value]),
          ),
        };
      }),
  },
  {
    id: 'connection-metadata-keys-header-tokens',
    clause: 'sso-ticket.body.nested-rules',
    bug: 'connection_config.metadata keys held to the characters of an HTTP header name (RFC 9110 token), as each entry is forwarded to the connection\'s hooks as an "X-Meta-<key>" header: a key "cost centre", "équipe" or "" is refused 400 instead of getting a ticket, though the published rules allow any key; "team_name" is accepted as before.',
    install: (app) =>
      editBodySchema(app, 'sso-ticket', (body) => {
        fieldNode(body, 'connection_config.metadata').propertyNames = { pattern: "^[!#$%&'*+.^_`|~0-9A-Za-z-]+$" };
      }),
  },
  {
    id: 'connection-name-passwordless-strategy-reserved',
    clause: 'sso-ticket.body.nested-rules',
    bug: 'connection_config.name refused when it is the name of the database or a passwordless strategy (auth0, email, sms), which the login page routes by name: a name "email" is refused 400 instead of getting a ticket, though it fits the name rules; "email-partners" gets one as before.',
    install: (app) =>
      editConnectionConfig(app, (config) =>
        typeof config.name === 'string' && ['auth0', 'email', 'sms'].includes(config.name)
          ? { ...config, name: `${config.name}!` }
          : config,
      ),
  },
  {
    id: 'ticket-two-failed-lookups-answered-500',
    clause: 'errors.two-causes',
    bug: 'The profile and the connection name looked up at once (Promise.all), whose handler maps one rejection to its status and lets an AggregateError of two through to the framework (500): a ticket for a profile that does not exist, naming a connection that already exists, is answered 500 instead of 404 or 409; each defect alone is answered as before.',
    install: (app) => {
      const store = capture(app, 'store');
      const errors = capture(app, 'errors');
      app.wrapRoute('sso-ticket', (next) => async (exchange) => {
        const reply = await next(exchange);
        if (reply.status !== 404 || !isJsonMediaType(exchange.headers['content-type'])) return reply;
        let name: unknown;
        try {
          name = (JSON.parse(exchange.body.toString('utf8')) as { connection_config?: { name?: unknown } } | null)?.connection_config?.name;
        } catch {
          return reply;
        }
        return typeof name === 'string' && store().connectionNameTaken(name) ? errors().reply('internal_error') : reply;
      });
    },
  },
]);

/** A list whose items are all strings. */
function isStringList(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}

/** A list of strings given as a string holding `separator`, at any depth, read as its parts (each made by `part`). */
function stringListsSplitOn(app: FaultHooks, separator: string, part: (text: string) => string): void {
  editDeclaredFields(app, (value, node) =>
    typeof value === 'string' &&
    value.includes(separator) &&
    typesOf(node).includes('array') &&
    typesOf(node.items as JsonObject).includes('string')
      ? value.split(separator).map(part)
      : value,
  );
}
