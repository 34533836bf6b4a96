// How the ticket request is read, at every depth: organizations de-duplicated by id before their
// items are checked, a list check skipped behind lodash's isEmpty, ttl_sec's integer test done on
// its text, -1 let through as "never expires"; and the observed rules: member names matched
// without case, camelCase aliases of an organization's members, an icon URL checked as any URL,
// and a connection name checked by RegExp.test alone. Each lets the near value through; plainly
// wrong values are refused as before.
import { schema } from '../../../../specs/index.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { isObject, without, type Fields } from '../round-3/support/ticket-fields.ts';
import { nestedView, viewTicketBody } from '../round-6/support/body-view.ts';

/** The request body's member names (observed level), as a case-insensitive binder knows them. */
const MEMBER_NAMES = Object.keys(schema('SsoTicketRequest', 'observed').properties as object);
const ORGANIZATION_FIELDS = ['organization_id', 'assign_membership_on_login', 'show_as_button'];
/** The published rule for connection_config.name (specs/openapi.yaml, ObservedConnectionConfig). */
const CONNECTION_NAME = /^[A-Za-z0-9]+(-[A-Za-z0-9]+)*$/;
/** The sentinel the slip reads as "the ticket never expires". */
const NEVER = -1;

/** lodash's isEmpty: true of null, numbers and booleans, of empty strings and lists, and of objects without own keys. */
function isEmptyAsLodash(value: unknown): boolean {
  if (value === null || value === undefined) return true;
  if (typeof value === 'string' || Array.isArray(value)) return value.length === 0;
  if (typeof value === 'object') return Object.keys(value).length === 0;
  return true;
}

/** A key renamed by `rename` when the new name is known and not taken; the object unchanged when none is. */
function renamedKeys(fields: Fields, known: readonly string[], rename: (name: string) => string): Fields {
  const entries = Object.entries(fields).map(([name, value]) => {
    const renamed = rename(name);
    return [renamed !== name && known.includes(renamed) && !(renamed in fields) ? renamed : name, value] as const;
  });
  return entries.every(([name], i) => name === Object.keys(fields)[i]) ? fields : Object.fromEntries(entries);
}

const snakeCase = (name: string) => name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

export const ticketBodyFaults = heldOutFamily([
  {
    id: 'ho8-organizations-deduplicated-before-check',
    clause: 'sso-ticket.body.enabled_organizations.show_as_button.type',
    level: 'contract',
    bug: 'enabled_organizations de-duplicated by organization_id (a Map keyed by id, the later item winning) before the items are checked: [{organization_id: "org_a", show_as_button: "yes"}, {organization_id: "org_a", show_as_button: true}] gets a ticket instead of 400; the first item alone is still refused.',
    install: (app) =>
      viewTicketBody(app, (body) => {
        const items = body.enabled_organizations;
        if (!Array.isArray(items)) return body;
        const byId = new Map<unknown, unknown>();
        const others: unknown[] = [];
        for (const item of items as unknown[]) {
          if (isObject(item) && typeof item.organization_id === 'string') byId.set(item.organization_id, item);
          else others.push(item);
        }
        return byId.size + others.length === items.length ? body : { ...body, enabled_organizations: [...byId.values(), ...others] };
      }),
  },
  {
    id: 'ho8-enabled-clients-skipped-when-isempty',
    clause: 'sso-ticket.body.enabled_clients.type',
    level: 'contract',
    bug: 'enabled_clients checked only when !_.isEmpty(value) (to skip an empty list), and lodash\'s isEmpty is true of {}, of numbers, of booleans and of null: enabled_clients {} (or 5, true, null) gets a ticket instead of 400; "abc" and {"a": "b"} are still refused.',
    install: (app) =>
      viewTicketBody(app, (body) =>
        'enabled_clients' in body && isEmptyAsLodash(body.enabled_clients) ? without(body, 'enabled_clients') : body,
      ),
  },
  {
    id: 'ho8-ttl-sec-integer-by-missing-dot',
    clause: 'sso-ticket.body.ttl_sec.type',
    level: 'contract',
    bug: 'ttl_sec\'s integer test written as !String(value).includes("."), and a small fraction is written in exponent notation without a dot: ttl_sec 1e-7 (0.0000001) gets a ticket instead of 400; 0.5 is still refused.',
    install: (app) =>
      viewTicketBody(app, (body) => {
        const ttl = body.ttl_sec;
        return typeof ttl === 'number' && !Number.isInteger(ttl) && !String(ttl).includes('.')
          ? { ...body, ttl_sec: Math.trunc(ttl) }
          : body;
      }),
  },
  {
    id: 'ho8-ttl-sec-minus-one-sentinel',
    clause: 'sso-ticket.body.ttl_sec.range',
    level: 'contract',
    bug: `ttl_sec ${NEVER} taken as a sentinel for "never expires" (a convention of the service's cache layer) and let past the range check: ttl_sec ${NEVER} gets a ticket instead of 400; ${NEVER - 1} is still refused.`,
    install: (app) => viewTicketBody(app, (body) => (body.ttl_sec === NEVER ? without(body, 'ttl_sec') : body)),
  },
  {
    id: 'ho8-member-names-case-insensitive',
    clause: 'sso-ticket.body.nested-rules',
    level: 'observed',
    bug: 'The body bound by a case-insensitive binder (a JSON library option, PropertyNameCaseInsensitive), so a member whose name differs from a known one only by case is read as it: {"TTL_SEC": 3600}, an unknown property, gets a ticket instead of 400; {"TTL_SECS": 1} is still refused.',
    install: (app) => viewTicketBody(app, (body) => renamedKeys(body, MEMBER_NAMES, (name) => name.toLowerCase())),
  },
  {
    id: 'ho8-organization-members-camel-aliased',
    clause: 'sso-ticket.body.nested-rules',
    level: 'observed',
    bug: 'The organizations\' items bound by a model whose alias generator also accepts the camelCase form of each member (populate by name or alias): [{organizationId: "org_a"}], an unknown property and no organization_id, gets a ticket instead of 400; [{organisationId: "org_a"}] is still refused.',
    install: (app) =>
      viewTicketBody(app, (body) => {
        const items = body.enabled_organizations;
        if (!Array.isArray(items)) return body;
        const viewed = (items as unknown[]).map((item) => (isObject(item) ? renamedKeys(item, ORGANIZATION_FIELDS, snakeCase) : item));
        return viewed.every((item, i) => item === items[i]) ? body : { ...body, enabled_organizations: viewed };
      }),
  },
  {
    id: 'ho8-icon-url-any-scheme',
    clause: 'sso-ticket.body.nested-rules',
    level: 'observed',
    bug: 'connection_config.options.icon_url checked with the validator library\'s generic "uri" format where the published rule is an https URL: an icon_url "http://cdn.example/icon.png" gets a ticket instead of 400; "icon" is still refused.',
    install: (app) =>
      viewTicketBody(app, (body) =>
        nestedView(body, 'connection_config', (config) =>
          nestedView(config, 'options', (options) =>
            typeof options.icon_url === 'string' && /^http:\/\/[^\s/]+/i.test(options.icon_url)
              ? { ...options, icon_url: options.icon_url.replace(/^http:/i, 'https:') }
              : options,
          ),
        ),
      ),
  },
  {
    id: 'ho8-connection-name-tested-by-regex-only',
    clause: 'sso-ticket.body.nested-rules',
    level: 'observed',
    bug: 'connection_config.name checked by NAME_PATTERN.test(name) alone, and RegExp.prototype.test turns its argument into a string: a name 12345 (or true, or null) gets a ticket instead of 400; a name {} ("[object Object]") and "bad name!" are still refused.',
    install: (app) =>
      viewTicketBody(app, (body) =>
        nestedView(body, 'connection_config', (config) => {
          const { name } = config;
          const coerced = typeof name === 'number' || typeof name === 'boolean' || name === null;
          return coerced && CONNECTION_NAME.test(String(name)) ? { ...config, name: String(name) } : config;
        }),
      ),
  },
]);
