// The ticket request at every depth: the body applied as a JSON merge patch (null members taken
// away), Jackson's empty string read as a null object, an API gateway's Lua JSON codec writing an
// empty list back as {}, an XML mediation step collapsing a list of one into its item, a JSON sniff
// that wants the text to end with "}", and ttl_sec rounded to the scheduler's minute before its
// range is checked; and the observed rules: metadata flattened into dotted keys, the items of
// options.domain_aliases checked in a forEach whose return returns from the callback only,
// display_name measured as JSON text, metadata keys held to MongoDB's rules, connection names of
// the strategy table reserved, and pending domains held to validator.js's isFQDN. Each lets its near
// miss through (or, where the rule is a refusal, refuses what the published rules allow); a plainly
// wrong value is answered as before.
import type { ErrorObject } from 'ajv';
import { editJsonBody, editRequests } from '../../support/route-edits.ts';
import { isJsonMediaType } from '../../../stages/json-body.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { withRule } from '../round-3/support/extra-rule.ts';
import { isObject, type Fields } from '../round-3/support/ticket-fields.ts';
import { nestedView, viewTicketBody, wrapTicketBodyChecks } from '../round-6/support/body-view.ts';

const TTL_SEC_MAX = 432_000;
const DISPLAY_NAME_MAX = 128;
/** The members of the ticket request whose schema is an object. */
const OBJECT_MEMBERS = [
  'connection_config',
  'domain_aliases_config',
  'provisioning_config',
  'enabled_features',
  'third_party_client_access_config',
];
/** Strategies of the connection-strategy table, whose names the reserved list was copied from. */
const STRATEGY_NAMES = [
  'auth0',
  'google-oauth2',
  'github',
  'facebook',
  'twitter',
  'linkedin',
  'apple',
  'windowslive',
  'samlp',
  'waad',
  'adfs',
  'oidc',
  'okta',
  'pingfederate',
  'email',
  'sms',
];
/** validator.js isFQDN's test of the last label with require_tld (letters, or an A-label). */
const FQDN_TLD = /^([a-z\u00a1-\u00a8\u00aa-\ud7ff\uf900-\ufdcf\ufdf0-\uffef]{2,}|xn[a-z0-9-]{2,})$/i;

/**
 * The value with `edit` applied to every list and object in it, innermost first (an object's
 * members and a list's items before the object or list itself); the value itself where nothing
 * changed, so that an untouched body reaches the route as it was sent.
 */
function editedDeep(value: unknown, edit: (node: unknown[] | Fields) => unknown): unknown {
  if (Array.isArray(value)) {
    const items = value.map((item: unknown) => editedDeep(item, edit));
    return edit(items.some((item, i) => item !== value[i]) ? items : value);
  }
  if (!isObject(value)) return value;
  const members = Object.entries(value).map(([name, member]) => [name, editedDeep(member, edit)] as const);
  return edit(members.some(([name, member]) => member !== value[name]) ? Object.fromEntries(members) : value);
}

/** A value with every object member whose value is null taken away, at every depth (RFC 7386 applied to {}). */
const mergePatched = (value: unknown) =>
  editedDeep(value, (node) =>
    isObject(node) && Object.values(node).includes(null)
      ? Object.fromEntries(Object.entries(node).filter(([, member]) => member !== null))
      : node,
  );

/** A value as lua-cjson writes back what it decoded: an empty list becomes an empty object. */
const throughCjson = (value: unknown) => editedDeep(value, (node) => (Array.isArray(node) && node.length === 0 ? {} : node));

/** A value as an XML round trip without array hints gives it back: a list of one is its item. */
const throughXml = (value: unknown) => editedDeep(value, (node) => (Array.isArray(node) && node.length === 1 ? node[0] : node));

/** An object flattened into dotted keys, as the `flat` package's flatten() does. */
function flattened(object: Fields, prefix = ''): Fields {
  return Object.fromEntries(
    Object.entries(object).flatMap(([name, value]) =>
      isObject(value) && Object.keys(value).length > 0
        ? Object.entries(flattened(value, `${prefix}${name}.`))
        : [[`${prefix}${name}`, value]],
    ),
  );
}

/** The body's connection_config, when it is an object. */
const connectionConfigOf = (value: unknown): Fields | undefined =>
  isObject(value) && isObject(value.connection_config) ? value.connection_config : undefined;

/** An ajv error of a hand-written rule, at `path` (a JSON pointer) of the body. */
function ruleError(path: string, keyword: string, params: Record<string, unknown>, message: string): ErrorObject {
  return { instancePath: path, schemaPath: `#${path}/${keyword}`, keyword, params, message };
}

export const ticketBodyFaults = heldOutFamily([
  {
    id: 'ho16-null-members-merge-patched',
    clause: 'sso-ticket.body.connection_id.type',
    level: 'contract',
    bug: 'The body applied as a JSON merge patch (json-merge-patch\'s apply over the defaults, RFC 7386) before it is checked, and a merge patch takes a null member as "remove it": a connection_id of null (or any member null, at any depth) is taken away and a ticket created instead of 400; a connection_id of 5 is still refused.',
    install: (app) => editJsonBody(app, 'sso-ticket', (value) => (isObject(value) ? mergePatched(value) : value)),
  },
  {
    id: 'ho16-empty-string-as-null-object',
    clause: 'sso-ticket.body.connection_config.type',
    level: 'contract',
    bug: 'The body bound by a Java service in front whose Jackson mapper has ACCEPT_EMPTY_STRING_AS_NULL_OBJECT on, so that "" for a member whose type is an object binds as null, which it then leaves out: a connection_config of "" (or provisioning_config, enabled_features "") gets a ticket instead of 400; a connection_config of "new-conn" is still refused.',
    install: (app) =>
      editJsonBody(app, 'sso-ticket', (value) =>
        isObject(value) && OBJECT_MEMBERS.some((name) => value[name] === '')
          ? Object.fromEntries(Object.entries(value).filter(([name, member]) => !(OBJECT_MEMBERS.includes(name) && member === '')))
          : value,
      ),
  },
  {
    id: 'ho16-empty-list-reencoded-as-object',
    clause: 'sso-ticket.body.enabled_clients.type',
    level: 'contract',
    bug: 'The body decoded and encoded again by an API gateway plugin written in Lua with lua-cjson, whose encode_empty_table_as_object default cannot tell an empty list from an empty object: enabled_clients [] (or enabled_organizations [], pending_domains []) reaches the service as {} and is refused 400 instead of getting a ticket; a list with items passes as before.',
    install: (app) => editJsonBody(app, 'sso-ticket', (value) => (isObject(value) ? throughCjson(value) : value)),
  },
  {
    id: 'ho16-single-item-list-collapsed',
    clause: 'sso-ticket.body.enabled_organizations.type',
    level: 'contract',
    bug: 'The body passed through a JSON-to-XML-to-JSON mediation policy (an XMLToJSON step without array hints, as xml2js with explicitArray: false gives it) that cannot tell one repeated element from a single one: an enabled_organizations of one item reaches the service as that item, an object, and is refused 400 instead of getting a ticket (enabled_clients and the other lists of one likewise); a list of two passes as before.',
    install: (app) => editJsonBody(app, 'sso-ticket', (value) => (isObject(value) ? throughXml(value) : value)),
  },
  {
    id: 'ho16-json-body-sniffed-by-braces',
    clause: 'sso-ticket.body.optional',
    level: 'contract',
    bug: 'The body let through to the JSON parser only when its text starts with "{" and ends with "}" (a sniff copied from a log formatter, without trim()): a body "{}\\n" or "{\\"ttl_sec\\": 3600}\\n", with the final line feed that curl --data-binary @file and most editors leave, is refused 400 as malformed JSON instead of creating a ticket; the same body without the line feed creates one as before.',
    install: (app) =>
      editRequests(app, 'sso-ticket', (exchange) => {
        if (!isJsonMediaType(exchange.headers['content-type'])) return exchange;
        const text = exchange.body.toString('utf8');
        if (text.trim() === '' || (text.startsWith('{') && text.endsWith('}'))) return exchange;
        try {
          if (!isObject(JSON.parse(text))) return exchange;
        } catch {
          return exchange;
        }
        // What the parser is handed when the sniff fails: a text JSON.parse refuses.
        return { ...exchange, body: Buffer.concat([exchange.body, Buffer.from([0])]) };
      }),
  },
  {
    id: 'ho16-ttl-sec-rounded-to-minute',
    clause: 'sso-ticket.body.ttl_sec.range',
    level: 'contract',
    bug: `ttl_sec rounded to the expiry scheduler's whole minutes (Math.round(ttl_sec / 60) * 60) after its integer test and before its range is checked: a ttl_sec of ${TTL_SEC_MAX + 1} up to ${TTL_SEC_MAX + 29} (or -1 down to -30, which rounds to -0) gets a ticket instead of 400; ${TTL_SEC_MAX + 30} (or -31) is still refused.`,
    install: (app) =>
      viewTicketBody(app, (body) =>
        Number.isInteger(body.ttl_sec) ? { ...body, ttl_sec: Math.round((body.ttl_sec as number) / 60) * 60 } : body,
      ),
  },
  {
    id: 'ho16-metadata-flattened',
    clause: 'sso-ticket.body.nested-rules',
    level: 'observed',
    bug: 'connection_config.metadata passed through flat\'s flatten() before it is checked, so that it fits the key-value store (nested members become dotted keys): a metadata of {"team": {"name": "payments"}} is stored as {"team.name": "payments"} and gets a ticket instead of 400; {"team": {"size": 5}} (a number once flattened) is still refused.',
    install: (app) =>
      viewTicketBody(app, (body) =>
        nestedView(body, 'connection_config', (config) =>
          isObject(config.metadata) && Object.values(config.metadata).some(isObject)
            ? { ...config, metadata: flattened(config.metadata) }
            : config,
        ),
      ),
  },
  {
    id: 'ho16-domain-aliases-checked-in-foreach',
    clause: 'sso-ticket.body.nested-rules',
    level: 'observed',
    bug: 'connection_config.options.domain_aliases checked item by item in domain_aliases.forEach((alias) => { if (!valid(alias)) return false; }), whose return leaves the callback and not the check: an item of 256 characters, "" or 5 gets a ticket instead of 400; a domain_aliases of "partner.example" (a string, not a list) is still refused.',
    install: (app) =>
      viewTicketBody(app, (body) =>
        nestedView(body, 'connection_config', (config) =>
          nestedView(config, 'options', (options) =>
            Array.isArray(options.domain_aliases) ? { ...options, domain_aliases: [] } : options,
          ),
        ),
      ),
  },
  {
    id: 'ho16-display-name-measured-as-json',
    clause: 'sso-ticket.body.nested-rules',
    level: 'observed',
    bug: `connection_config.display_name held to ${DISPLAY_NAME_MAX} characters by JSON.stringify(value).length (a guard on the size of the stored JSON), which counts its two quotes and the backslash of every escape: a display_name of ${DISPLAY_NAME_MAX - 1} or ${DISPLAY_NAME_MAX} characters is refused 400 instead of getting a ticket (and one of ${DISPLAY_NAME_MAX - 2} with a quote in it); ${DISPLAY_NAME_MAX - 2} plain characters get one as before.`,
    install: (app) =>
      wrapTicketBodyChecks(app, (validate) =>
        withRule(validate, (value) => {
          const name = connectionConfigOf(value)?.display_name;
          return typeof name === 'string' && JSON.stringify(name).length > DISPLAY_NAME_MAX
            ? ruleError(
                '/connection_config/display_name',
                'maxLength',
                { limit: DISPLAY_NAME_MAX },
                `must NOT have more than ${DISPLAY_NAME_MAX} characters`,
              )
            : undefined;
        }),
      ),
  },
  {
    id: 'ho16-metadata-keys-mongo-rules',
    clause: 'sso-ticket.body.nested-rules',
    level: 'observed',
    bug: 'connection_config.metadata stored as a MongoDB subdocument and its keys checked with the driver\'s rules for field names (no "." in a key, none starting with "$"): a metadata key "team.name" (or "$owner") is refused 400 instead of getting a ticket; a key "team_name" is accepted as before.',
    install: (app) =>
      wrapTicketBodyChecks(app, (validate) =>
        withRule(validate, (value) => {
          const metadata = connectionConfigOf(value)?.metadata;
          const key = isObject(metadata) ? Object.keys(metadata).find((name) => name.includes('.') || name.startsWith('$')) : undefined;
          return key === undefined
            ? undefined
            : ruleError(
                '/connection_config/metadata',
                'propertyNames',
                { propertyName: key },
                `key ${key} must not contain '.' or start with '$'`,
              );
        }),
      ),
  },
  {
    id: 'ho16-connection-name-strategy-reserved',
    clause: 'sso-ticket.body.nested-rules',
    level: 'observed',
    bug: `connection_config.name checked against a reserved list copied from the connection-strategy table (${STRATEGY_NAMES.slice(0, 4).join(', ')} ...), so that no connection is named like a strategy: a name of "github" (or "samlp", "oidc") is refused 400 instead of getting a ticket; "github-partner" gets one as before.`,
    install: (app) =>
      wrapTicketBodyChecks(app, (validate) =>
        withRule(validate, (value) => {
          const name = connectionConfigOf(value)?.name;
          return typeof name === 'string' && STRATEGY_NAMES.includes(name)
            ? ruleError('/connection_config/name', 'not', {}, `${name} is a reserved connection name`)
            : undefined;
        }),
      ),
  },
  {
    id: 'ho16-pending-domain-fqdn-required',
    clause: 'sso-ticket.body.nested-rules',
    level: 'observed',
    bug: 'domain_aliases_config.pending_domains items checked with validator.js\'s isFQDN, whose require_tld default wants a dot and a last label of letters: an item "intranet" (or "corp.internal1") is refused 400 instead of getting a ticket; "partner.example" is accepted as before.',
    install: (app) => {
      const check = (item: unknown) =>
        typeof item !== 'string' || (item.includes('.') && FQDN_TLD.test(item.slice(item.lastIndexOf('.') + 1)));
      wrapTicketBodyChecks(app, (validate) =>
        withRule(validate, (value) => {
          const pending =
            isObject(value) && isObject(value.domain_aliases_config) ? value.domain_aliases_config.pending_domains : undefined;
          const at = Array.isArray(pending) ? pending.findIndex((item) => !check(item)) : -1;
          return at < 0
            ? undefined
            : ruleError(`/domain_aliases_config/pending_domains/${at}`, 'format', { format: 'fqdn' }, 'must match format "fqdn"');
        }),
      );
    },
  },
]);
