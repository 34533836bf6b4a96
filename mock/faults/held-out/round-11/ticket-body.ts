// The ticket request at every depth: ttl_sec passed through unary plus unless it is a string, an
// organization id kept as text by a big-integer-safe JSON parser, string flags read with
// JSON.parse, and enabled_features checked by a schema generated from a type whose members lost
// their "?"; and the observed rules: token_lifetime 0 read as "the default" by a rule copied from
// ttl_sec, and "x-" members let through as vendor extensions; a reviver that parses
// string members holding JSON objects, metadata values measured in UTF-16 code units, and the
// provisioning scopes checked against a TypeScript enum's member names. Each check decides on a view of the
// body with that one near miss repaired (or, for the generated schema, broken); the route acts on
// the body as sent, and a plainly wrong value is refused as before.
import querystring from 'node:querystring';
import { isJsonMediaType } from '../../../stages/json-body.ts';
import { editRequests } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { isObject, type Fields } from '../round-3/support/ticket-fields.ts';
import { nestedView, viewTicketBody } from '../round-6/support/body-view.ts';

/** An integer of more digits than a double holds exactly, as a JSON value (after "[", "," or ":"). */
const BIG_INTEGER = /(?<=[[,:]\s*)(-?\d{17,})(?=\s*[,\]}])/g;
const FEATURE_FLAGS = ['sso', 'domain_verification', 'provisioning'];
/** The prefix of the OpenAPI vendor extensions, which a schema's patternProperties let through. */
const EXTENSION_PREFIX = 'x-';
const METADATA_VALUE_MAX = 255;
const PROVISIONING_SCOPES = [
  'get:users',
  'post:users',
  'put:users',
  'patch:users',
  'delete:users',
  'get:groups',
  'post:groups',
  'put:groups',
  'patch:groups',
  'delete:groups',
];
/** The enum's member name of each value, "get:users" being GetUsers. */
const ENUM_VALUE_OF_NAME = new Map(
  PROVISIONING_SCOPES.map((value) => [
    value
      .split(':')
      .map((part) => `${part[0]!.toUpperCase()}${part.slice(1)}`)
      .join(''),
    value,
  ]),
);
/** A value the compiled check refuses for enabled_features (not an object). */
const NOT_AN_OBJECT = 'missing required members';

/** The body with member `name` replaced by `repair(value)` where it gives one; else the body itself. */
function repaired(body: Fields, name: string, repair: (value: unknown) => unknown): Fields {
  if (!(name in body)) return body;
  const value = repair(body[name]);
  return value === undefined ? body : { ...body, [name]: value };
}

/** What JSON.parse makes of a string that is JSON text of a boolean, else undefined. */
function parsedBoolean(value: unknown): boolean | undefined {
  if (typeof value !== 'string') return undefined;
  try {
    const parsed: unknown = JSON.parse(value);
    return typeof parsed === 'boolean' ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** What the reviver makes of a string that is the JSON text of an object, else undefined. */
function revivedObject(value: unknown): Fields | undefined {
  if (typeof value !== 'string' || !value.trimStart().startsWith('{')) return undefined;
  try {
    const parsed: unknown = JSON.parse(value);
    return isObject(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

export const ticketBodyFaults = heldOutFamily([
  {
    id: 'ho11-ttl-sec-unary-plus',
    clause: 'sso-ticket.body.ttl_sec.type',
    level: 'contract',
    bug: 'ttl_sec checked as typeof ttl_sec === "string" ? refuse : Number.isInteger(+ttl_sec), the string case refused first and everything else converted by unary plus: a ttl_sec of true (+true is 1) or false (0) gets a ticket instead of 400; "3600" and {"s": 1} (NaN) are still refused.',
    install: (app) =>
      viewTicketBody(app, (body) => repaired(body, 'ttl_sec', (value) => (typeof value === 'boolean' ? +value : undefined))),
  },
  {
    id: 'ho11-client-ids-big-integers-as-text',
    clause: 'sso-ticket.body.enabled_clients.type',
    level: 'contract',
    bug: "The body parsed with a big-integer-safe JSON parser set to keep integers beyond 2^53 as their text (json-bigint's storeAsString), so that no id loses digits: enabled_clients [12345678901234567890123456789012], a number of 32 digits, reaches the check as the string of those digits (a well-formed client id) and gets a ticket instead of 400; enabled_clients [42] is still refused.",
    install: (app) =>
      editRequests(app, 'sso-ticket', (exchange) => {
        if (!isJsonMediaType(exchange.headers['content-type'])) return exchange;
        const text = exchange.body.toString('utf8');
        const kept = text.replace(BIG_INTEGER, '"$1"');
        return kept === text ? exchange : { ...exchange, body: Buffer.from(kept, 'utf8') };
      }),
  },
  {
    id: 'ho11-discovery-flag-json-parsed',
    clause: 'sso-ticket.body.use_for_organization_discovery.type',
    level: 'contract',
    bug: 'use_for_organization_discovery read through the settings loader\'s habit of running JSON.parse over a string value before checking it: a use_for_organization_discovery of "true" or "false", a string, gets a ticket instead of 400; "yes" (JSON.parse throws) is still refused.',
    install: (app) => viewTicketBody(app, (body) => repaired(body, 'use_for_organization_discovery', parsedBoolean)),
  },
  {
    id: 'ho11-aliases-config-query-string',
    clause: 'sso-ticket.body.domain_aliases_config.type',
    level: 'contract',
    bug: 'domain_aliases_config accepted in the short form the command-line client writes, a query string turned into an object by querystring.parse before the check: a domain_aliases_config of "domain_verification=none", a string, gets a ticket instead of 400; "none" (read as {none: ""}, an unknown member) is still refused.',
    install: (app) =>
      viewTicketBody(app, (body) =>
        repaired(body, 'domain_aliases_config', (value) => (typeof value === 'string' ? { ...querystring.parse(value) } : undefined)),
      ),
  },
  {
    id: 'ho11-feature-flags-generated-required',
    clause: 'sso-ticket.body.optional',
    level: 'contract',
    bug: `enabled_features checked by a schema generated from the TypeScript type of the settings page, whose members are not optional (sso: boolean, not sso?: boolean), so all three of ${FEATURE_FLAGS.join(', ')} are required: enabled_features {"sso": true} is refused 400 instead of getting a ticket; the three flags together are accepted as before.`,
    install: (app) =>
      viewTicketBody(app, (body) =>
        nestedView(body, 'enabled_features', (features) =>
          FEATURE_FLAGS.every((flag) => flag in features) ? features : { sso: NOT_AN_OBJECT },
        ),
      ),
  },
  {
    id: 'ho11-token-lifetime-zero-as-default',
    clause: 'sso-ticket.body.nested-rules',
    level: 'observed',
    bug: 'provisioning_config.token_lifetime checked by a rule copied from ttl_sec\'s, "0 means the default", kept with the copy: a token_lifetime of 0 gets a ticket instead of 400 (the minimum is 900); a token_lifetime of 1 is still refused.',
    install: (app) =>
      viewTicketBody(app, (body) =>
        nestedView(body, 'provisioning_config', (config) => repaired(config, 'token_lifetime', (value) => (value === 0 ? 900 : undefined))),
      ),
  },
  {
    id: 'ho11-extension-members-let-through',
    clause: 'sso-ticket.body.nested-rules',
    level: 'observed',
    bug: `The body's schema given patternProperties {"^${EXTENSION_PREFIX}": {}} by a generator that keeps OpenAPI vendor extensions: a top-level member "${EXTENSION_PREFIX}trace" gets a ticket instead of 400 (an unknown member); a member "trace" is still refused.`,
    install: (app) =>
      viewTicketBody(app, (body) =>
        Object.keys(body).some((name) => name.startsWith(EXTENSION_PREFIX))
          ? Object.fromEntries(Object.entries(body).filter(([name]) => !name.startsWith(EXTENSION_PREFIX)))
          : body,
      ),
  },
  {
    id: 'ho11-connection-config-json-text-revived',
    clause: 'sso-ticket.body.connection_config.type',
    level: 'contract',
    bug: 'The body parsed with a reviver that parses string values which look like JSON objects (written for clients that double-encode nested members): a connection_config of "{\\"name\\": \\"new-conn\\"}", a string, is read as the object and gets a ticket instead of 400; a connection_config of "new-conn", or of JSON text that does not parse, is still refused.',
    install: (app) => viewTicketBody(app, (body) => repaired(body, 'connection_config', revivedObject)),
  },
  {
    id: 'ho11-metadata-values-in-code-units',
    clause: 'sso-ticket.body.nested-rules',
    level: 'observed',
    bug: `connection_config.metadata's values held to ${METADATA_VALUE_MAX} characters by value.length, which counts UTF-16 code units, where the rule counts characters (code points): a value of 200 emoji (400 code units) is refused 400 instead of getting a ticket; a value of ${METADATA_VALUE_MAX + 1} letters is still refused.`,
    install: (app) =>
      viewTicketBody(app, (body) =>
        nestedView(body, 'connection_config', (config) =>
          nestedView(config, 'metadata', (metadata) =>
            Object.fromEntries(
              Object.entries(metadata).map(([name, value]) => [
                name,
                typeof value === 'string' && value.length > METADATA_VALUE_MAX ? 'x'.repeat(METADATA_VALUE_MAX + 1) : value,
              ]),
            ),
          ),
        ),
      ),
  },
  {
    id: 'ho11-provisioning-scopes-enum-keys',
    clause: 'sso-ticket.body.nested-rules',
    level: 'observed',
    bug: 'provisioning_config.scopes checked against Object.keys(ProvisioningScope), the member names of a TypeScript string enum (GetUsers = "get:users", ...), where its values were meant: scopes ["GetUsers"] gets a ticket and ["get:users"] is refused 400, the other way round; ["get:things"] is refused by both.',
    install: (app) =>
      viewTicketBody(app, (body) =>
        nestedView(body, 'provisioning_config', (config) =>
          repaired(config, 'scopes', (scopes) =>
            Array.isArray(scopes)
              ? (scopes as unknown[]).map((scope): unknown =>
                  typeof scope === 'string' ? (ENUM_VALUE_OF_NAME.get(scope) ?? `${scope}:not-a-member-name`) : scope,
                )
              : undefined,
          ),
        ),
      ),
  },
]);
