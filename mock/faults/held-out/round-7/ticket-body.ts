// How the ticket request is read, at every depth: an array of organizations checked only up to a
// cap, falsy client ids filtered out, ttl_sec's integer test with a tolerance, a lifetime stored as
// a 32-bit float, an array passing a typeof test, a list stringified by a template literal, a falsy feature
// flag skipped; and the observed rules: a "__proto__" member hidden by Object.assign, unknown
// members of organizations stripped, an enum lower-cased in a Turkish locale. Each lets the near
// value through; plainly wrong values are refused as before.
import { heldOutFamily } from '../held-out-fault.ts';
import { isObject, without, type Fields } from '../round-3/support/ticket-fields.ts';
import { nestedView, viewTicketBody } from '../round-6/support/body-view.ts';

/** How many items of a list the slip's check looks at. */
const ITEMS_CHECKED = 10;
/** ajv's multipleOfPrecision as the slip sets it: a multiple within 1e-9 counts. */
const TOLERANCE = 1e-9;
const ORGANIZATION_FIELDS = ['organization_id', 'assign_membership_on_login', 'show_as_button'];
const SERVER_LOCALE = 'tr-TR';

function nearInteger(value: unknown): boolean {
  return typeof value === 'number' && !Number.isInteger(value) && Math.abs(value - Math.round(value)) < TOLERANCE;
}

function mapOrganizations(body: Fields, map: (item: Fields) => Fields): Fields {
  const items: unknown = body.enabled_organizations;
  return Array.isArray(items)
    ? { ...body, enabled_organizations: items.map((item: unknown) => (isObject(item) ? map(item) : item)) }
    : body;
}

export const ticketBodyFaults = heldOutFamily([
  {
    id: 'ho7-organizations-checked-up-to-ten',
    clause: 'sso-ticket.body.enabled_organizations.show_as_button.type',
    level: 'contract',
    bug: `enabled_organizations checked item by item for the first ${ITEMS_CHECKED} items only (a cap meant to bound the work of a check): an eleventh item whose show_as_button is "yes" gets a ticket instead of 400; the same item first in the list is still refused.`,
    install: (app) =>
      viewTicketBody(app, (body) =>
        Array.isArray(body.enabled_organizations) && body.enabled_organizations.length > ITEMS_CHECKED
          ? { ...body, enabled_organizations: body.enabled_organizations.slice(0, ITEMS_CHECKED) }
          : body,
      ),
  },
  {
    id: 'ho7-enabled-clients-filtered-by-boolean',
    clause: 'sso-ticket.body.enabled_clients.type',
    level: 'contract',
    bug: 'enabled_clients cleaned with filter(Boolean) before its items are checked (to drop blank rows): ["<client id>", null] (or with 0, "" or false) gets a ticket instead of 400; ["<client id>", 5] is still refused.',
    install: (app) =>
      viewTicketBody(app, (body) =>
        Array.isArray(body.enabled_clients) && body.enabled_clients.some((item) => !item)
          ? { ...body, enabled_clients: body.enabled_clients.filter(Boolean) }
          : body,
      ),
  },
  {
    id: 'ho7-ttl-sec-integer-within-tolerance',
    clause: 'sso-ticket.body.ttl_sec.type',
    level: 'contract',
    bug: `ttl_sec's integer rule written as multipleOf: 1 and checked by a validator with a multiple-of precision set (ajv's multipleOfPrecision), so a value within ${TOLERANCE} of an integer passes: ttl_sec 3600.0000000001 gets a ticket instead of 400; 3600.5 is still refused.`,
    install: (app) =>
      viewTicketBody(app, (body) => (nearInteger(body.ttl_sec) ? { ...body, ttl_sec: Math.round(body.ttl_sec as number) } : body)),
  },
  {
    id: 'ho7-token-lifetime-through-float32',
    clause: 'sso-ticket.body.provisioning_config.token_lifetime.type',
    level: 'contract',
    bug: 'provisioning_config.token_lifetime read through a 32-bit float (a REAL column, Math.fround) before the integer test: 1200.00001, which is not an integer, gets a ticket instead of 400; 1200.5 is still refused.',
    install: (app) =>
      viewTicketBody(app, (body) =>
        nestedView(body, 'provisioning_config', (config) =>
          typeof config.token_lifetime === 'number' &&
          !Number.isInteger(config.token_lifetime) &&
          Number.isInteger(Math.fround(config.token_lifetime))
            ? { ...config, token_lifetime: Math.fround(config.token_lifetime) }
            : config,
        ),
      ),
  },
  {
    id: 'ho7-provisioning-config-array-passes-typeof',
    clause: 'sso-ticket.body.provisioning_config.type',
    level: 'contract',
    bug: 'provisioning_config checked with typeof value === "object" && value !== null, which arrays pass, and its members then read by name: provisioning_config: [] gets a ticket instead of 400; provisioning_config: "x" is still refused.',
    install: (app) =>
      viewTicketBody(app, (body) => (Array.isArray(body.provisioning_config) ? { ...body, provisioning_config: {} } : body)),
  },
  {
    id: 'ho7-connection-id-read-through-template',
    clause: 'sso-ticket.body.connection_id.type',
    level: 'contract',
    bug: 'connection_id read through a template literal (`${body.connection_id}`) before its check, and an array of one string stringifies to that string: connection_id: ["<a connection id>"] gets a ticket instead of 400; connection_id: {} ("[object Object]") and ["<id>", "<id>"] are still refused.',
    install: (app) =>
      viewTicketBody(app, (body) =>
        Array.isArray(body.connection_id) ? { ...body, connection_id: `${body.connection_id as unknown as string}` } : body,
      ),
  },
  {
    id: 'ho7-falsy-provisioning-flag-skipped',
    clause: 'sso-ticket.body.enabled_features.provisioning.type',
    level: 'contract',
    bug: 'enabled_features.provisioning type-checked inside if (features.provisioning) { ... }, so a falsy value is never checked: provisioning: 0 (or "" or null) gets a ticket instead of 400; provisioning: "yes" is still refused.',
    install: (app) =>
      viewTicketBody(app, (body) =>
        nestedView(body, 'enabled_features', (features) =>
          'provisioning' in features && !features.provisioning && typeof features.provisioning !== 'boolean'
            ? without(features, 'provisioning')
            : features,
        ),
      ),
  },
  {
    id: 'ho7-proto-member-hidden-by-assign',
    clause: 'sso-ticket.body.nested-rules',
    level: 'observed',
    bug: 'The body copied with Object.assign({}, body) before its checks, which turns a "__proto__" member into the copy\'s prototype: {"__proto__": {"ttl_sec": 1}}, an unknown property, gets a ticket instead of 400; {"proto": {}} is still refused.',
    install: (app) =>
      viewTicketBody(app, (body) => (Object.prototype.hasOwnProperty.call(body, '__proto__') ? Object.assign({}, body) : body)),
  },
  {
    id: 'ho7-organization-unknown-members-stripped',
    clause: 'sso-ticket.body.nested-rules',
    level: 'observed',
    bug: `The organizations' items validated by a schema compiled with removeAdditional (ajv), which deletes unknown members instead of refusing them: [{organization_id: "org_1", display_name: "Acme"}] gets a ticket instead of 400; [{organization_id: 5}] is still refused.`,
    install: (app) =>
      viewTicketBody(app, (body) =>
        mapOrganizations(body, (item) => Object.fromEntries(Object.entries(item).filter(([name]) => ORGANIZATION_FIELDS.includes(name)))),
      ),
  },
  {
    id: 'ho7-verification-mode-lowercased-in-turkish',
    clause: 'sso-ticket.body.nested-rules',
    level: 'observed',
    bug: `domain_aliases_config.domain_verification lower-cased with toLocaleLowerCase() on a server whose locale is ${SERVER_LOCALE} before the enum test: "NONE" and "REQUİRED" (dotted capital I) get a ticket instead of 400, while "REQUIRED" becomes "requıred" and is still refused, as is "sometimes".`,
    install: (app) =>
      viewTicketBody(app, (body) =>
        nestedView(body, 'domain_aliases_config', (config) =>
          typeof config.domain_verification === 'string'
            ? { ...config, domain_verification: config.domain_verification.toLocaleLowerCase(SERVER_LOCALE) }
            : config,
        ),
      ),
  },
]);
