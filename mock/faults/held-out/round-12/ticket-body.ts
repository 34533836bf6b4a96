// The ticket request at every depth: ttl_sec held to a longer maximum when a connection is created,
// organization ids given as a list fanned out into items, provisioning scopes given as a permission
// map turned into a list, organizations given as an object keyed by id turned into a list, feature
// flags written as a legacy table's "Y"/"N", and provisioning_config given as a base64 blob of its
// JSON; and the observed rules: the
// connection name's pattern simplified into a character class, a protocol-relative icon_url
// resolved against https, an IdP protocol of a newer SDK's enum, display_name held to the vault
// record name's bound, and the authorize query's leading "?" lost in a URLSearchParams round trip.
// Each check decides on a view of the body with that one near miss repaired; the route acts on the
// body as sent, and a plainly wrong value is refused as before.
import { heldOutFamily } from '../held-out-fault.ts';
import { isObject, type Fields } from '../round-3/support/ticket-fields.ts';
import { nestedView, viewTicketBody } from '../round-6/support/body-view.ts';

const TTL_SEC_MAX = 432_000;
/** The connection name's rule, ^[A-Za-z0-9]+(-[A-Za-z0-9]+)*$, simplified into one character class. */
const NAME_AS_CLASS = /^[A-Za-z0-9][-A-Za-z0-9]*$/;
const NAME_MAX = 128;
/** The bound of a vault record's name (FlowsVaultConnection.name). */
const RECORD_NAME_MAX = 150;
/** A name the real pattern takes, which the simplified check stands in with. */
const VALID_NAME = 'new-conn';
/** The longest ticket of a flow that creates a connection, under the product rule (a week). */
const SETUP_TTL_MAX = 604_800;
/** The flags of the legacy settings table, CHAR(1). */
const FLAG_LETTERS: Record<string, boolean> = { Y: true, N: false };
/** A protocol of a newer SDK's ClientProtocol enum, and the one of the service's list it stands in for. */
const NEWER_PROTOCOL = 'oidc';
const KNOWN_PROTOCOL = 'oauth2';

/** The body with member `name` replaced by `repair(value)` where it gives one; else the body itself. */
function repaired(body: Fields, name: string, repair: (value: unknown) => unknown): Fields {
  if (!(name in body)) return body;
  const value = repair(body[name]);
  return value === undefined ? body : { ...body, [name]: value };
}

/** The object whose JSON a string is the base64 of, else undefined. */
function base64Object(value: unknown): Fields | undefined {
  if (typeof value !== 'string' || !/^[A-Za-z0-9+/]+={0,2}$/.test(value)) return undefined;
  try {
    const parsed: unknown = JSON.parse(Buffer.from(value, 'base64').toString('utf8'));
    return isObject(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** connection_config.options.idpinitiated seen through `view`. */
function idpInitiated(body: Fields, view: (idp: Fields) => Fields): Fields {
  return nestedView(body, 'connection_config', (config) =>
    nestedView(config, 'options', (options) => nestedView(options, 'idpinitiated', view)),
  );
}

export const ticketBodyFaults = heldOutFamily([
  {
    id: 'ho12-ttl-sec-longer-bound-for-new-connections',
    clause: 'sso-ticket.body.ttl_sec.range',
    level: 'contract',
    bug: `ttl_sec's maximum looked up per kind of flow, with a product rule that a ticket creating a new connection (connection_config given) may live ${SETUP_TTL_MAX} seconds (a week) for the customer's IT review: with connection_config, a ttl_sec of ${TTL_SEC_MAX + 1} or 500000 gets a ticket instead of 400; without it ${TTL_SEC_MAX + 1} is still refused, and with it ${SETUP_TTL_MAX + 1} too.`,
    install: (app) =>
      viewTicketBody(app, (body) =>
        'connection_config' in body
          ? repaired(body, 'ttl_sec', (value) =>
              Number.isInteger(value) && (value as number) > TTL_SEC_MAX && (value as number) <= SETUP_TTL_MAX ? TTL_SEC_MAX : undefined,
            )
          : body,
      ),
  },
  {
    id: 'ho12-organization-ids-fanned-out',
    clause: 'sso-ticket.body.enabled_organizations.organization_id.type',
    level: 'contract',
    bug: 'enabled_organizations expanded by a bulk shorthand before the check, an item whose organization_id is a list standing for one item per id with the same settings: [{"organization_id": ["org_a...", "org_b..."]}] gets a ticket instead of 400; an organization_id of 5 is still refused.',
    install: (app) =>
      viewTicketBody(app, (body) =>
        repaired(body, 'enabled_organizations', (items) =>
          Array.isArray(items) && items.some((item) => isObject(item) && Array.isArray(item.organization_id))
            ? items.flatMap((item: unknown) =>
                isObject(item) && Array.isArray(item.organization_id)
                  ? (item.organization_id as unknown[]).map((id) => ({ ...item, organization_id: id }))
                  : [item],
              )
            : undefined,
        ),
      ),
  },
  {
    id: 'ho12-provisioning-scopes-permission-map',
    clause: 'sso-ticket.body.provisioning_config.scopes.type',
    level: 'contract',
    bug: 'provisioning_config.scopes also taken in the form the role editor keeps permissions in, a map of scope to true, turned into a list by Object.keys(map).filter((scope) => map[scope] === true): scopes {"get:users": true} gets a ticket instead of 400; scopes "get:users" is still refused.',
    install: (app) =>
      viewTicketBody(app, (body) =>
        nestedView(body, 'provisioning_config', (config) =>
          repaired(config, 'scopes', (value) =>
            isObject(value) && Object.keys(value).length > 0 && Object.values(value).every((granted) => granted === true)
              ? Object.keys(value)
              : undefined,
          ),
        ),
      ),
  },
  {
    id: 'ho12-organizations-keyed-by-id',
    clause: 'sso-ticket.body.enabled_organizations.type',
    level: 'contract',
    bug: 'enabled_organizations normalised by a helper that also takes the form the dashboard keeps them in, an object keyed by organization id, turned into a list with Object.entries(...).map(([id, o]) => ({ organization_id: id, ...o })): enabled_organizations {"org_...": {"show_as_button": true}} gets a ticket instead of 400; {"org_...": true} is still refused.',
    install: (app) =>
      viewTicketBody(app, (body) =>
        repaired(body, 'enabled_organizations', (value) =>
          isObject(value) && Object.keys(value).length > 0 && Object.values(value).every(isObject)
            ? Object.entries(value).map(([id, organization]) => ({ organization_id: id, ...(organization as Fields) }))
            : undefined,
        ),
      ),
  },
  {
    id: 'ho12-feature-flags-yes-no-letters',
    clause: 'sso-ticket.body.enabled_features.provisioning.type',
    level: 'contract',
    bug: 'enabled_features read through the mapping of the legacy settings table, whose flags are CHAR(1) "Y" or "N", before the check: enabled_features.provisioning "Y" (or "N") gets a ticket instead of 400; "yes" is still refused.',
    install: (app) =>
      viewTicketBody(app, (body) =>
        nestedView(body, 'enabled_features', (features) =>
          Object.values(features).some((value) => typeof value === 'string' && Object.hasOwn(FLAG_LETTERS, value))
            ? Object.fromEntries(
                Object.entries(features).map(([name, value]) => [
                  name,
                  typeof value === 'string' && Object.hasOwn(FLAG_LETTERS, value) ? FLAG_LETTERS[value] : value,
                ]),
              )
            : features,
        ),
      ),
  },
  {
    id: 'ho12-provisioning-config-base64-blob',
    clause: 'sso-ticket.body.provisioning_config.type',
    level: 'contract',
    bug: 'provisioning_config also taken in the form the dashboard exports settings in, the base64 of their JSON, decoded when a string decodes to a JSON object: provisioning_config "eyJzY29wZXMiOlsiZ2V0OnVzZXJzIl19" (base64 of {"scopes":["get:users"]}) gets a ticket instead of 400; provisioning_config "get:users" is still refused.',
    install: (app) => viewTicketBody(app, (body) => repaired(body, 'provisioning_config', base64Object)),
  },
  {
    id: 'ho12-connection-name-hyphen-class',
    clause: 'sso-ticket.body.nested-rules',
    level: 'observed',
    bug: 'connection_config.name checked with ^[A-Za-z0-9][-A-Za-z0-9]*$, the rule ^[A-Za-z0-9]+(-[A-Za-z0-9]+)*$ "simplified" into one character class: a name "new--conn" or "new-conn-" gets a ticket instead of 400; "-new" is still refused.',
    install: (app) =>
      viewTicketBody(app, (body) =>
        nestedView(body, 'connection_config', (config) =>
          typeof config.name === 'string' && config.name.length <= NAME_MAX && NAME_AS_CLASS.test(config.name)
            ? { ...config, name: VALID_NAME }
            : config,
        ),
      ),
  },
  {
    id: 'ho12-icon-url-protocol-relative',
    clause: 'sso-ticket.body.nested-rules',
    level: 'observed',
    bug: 'connection_config.options.icon_url checked as new URL(value, "https://<tenant>") (a base given so that the check does not throw), which resolves a protocol-relative reference: an icon_url "//cdn.example.com/icon.png" gets a ticket instead of 400; "http://cdn.example.com/icon.png" is still refused.',
    install: (app) =>
      viewTicketBody(app, (body) =>
        nestedView(body, 'connection_config', (config) =>
          nestedView(config, 'options', (options) =>
            typeof options.icon_url === 'string' && options.icon_url.startsWith('//')
              ? { ...options, icon_url: `https:${options.icon_url}` }
              : options,
          ),
        ),
      ),
  },
  {
    id: 'ho12-client-protocol-newer-enum',
    clause: 'sso-ticket.body.nested-rules',
    level: 'observed',
    bug: `options.idpinitiated.client_protocol checked against the ClientProtocol enum of a newer SDK, which added "${NEWER_PROTOCOL}" to samlp, wsfed and oauth2: a client_protocol "${NEWER_PROTOCOL}" gets a ticket instead of 400; "saml" is still refused.`,
    install: (app) =>
      viewTicketBody(app, (body) =>
        idpInitiated(body, (idp) => (idp.client_protocol === NEWER_PROTOCOL ? { ...idp, client_protocol: KNOWN_PROTOCOL } : idp)),
      ),
  },
  {
    id: 'ho12-display-name-bound-of-record-name',
    clause: 'sso-ticket.body.nested-rules',
    level: 'observed',
    bug: `connection_config.display_name held to the bound of the name of a vault record (${RECORD_NAME_MAX}), taken from a table of "name" limits that was centralised for every schema, where ${NAME_MAX} is its own: a display_name of ${NAME_MAX + 1} (up to ${RECORD_NAME_MAX}) characters gets a ticket instead of 400; ${RECORD_NAME_MAX + 1} characters are still refused.`,
    install: (app) =>
      viewTicketBody(app, (body) =>
        nestedView(body, 'connection_config', (config) =>
          typeof config.display_name === 'string' && config.display_name.length > NAME_MAX && config.display_name.length <= RECORD_NAME_MAX
            ? { ...config, display_name: config.display_name.slice(0, NAME_MAX) }
            : config,
        ),
      ),
  },
  {
    id: 'ho12-authorize-query-question-mark-lost',
    clause: 'sso-ticket.body.nested-rules',
    level: 'observed',
    bug: 'options.idpinitiated.client_authorizequery normalised by new URLSearchParams(value).toString() before its length is counted (at most 256), which drops a leading "?": a query of 257 characters starting with "?" gets a ticket instead of 400; 257 characters without it are still refused.',
    install: (app) =>
      viewTicketBody(app, (body) =>
        idpInitiated(body, (idp) =>
          typeof idp.client_authorizequery === 'string' && idp.client_authorizequery.startsWith('?')
            ? { ...idp, client_authorizequery: new URLSearchParams(idp.client_authorizequery).toString() }
            : idp,
        ),
      ),
  },
]);
