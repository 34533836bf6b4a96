// The ticket request at every depth: ttl_sec's maximum checked in whole days, token_lifetime read
// through a duration parser ("15m"), a single organization taken for a list of one, ttl_sec taken
// as an expiry date-time, use_for_organization_discovery read as YAML 1.1 ("yes"),
// domain_aliases_config checked only when truthy, and connection_id taken in an ORM relation's
// object form; and the observed rules: is_domain_connection stored in a 0/1 column, an empty
// domain_verification defaulted to "none", client_authorizequery measured without a leading "?",
// and client_protocol "saml" taken for "samlp". Each check decides on a view of the body with that
// one near miss repaired; the route acts on the body as sent, and a plainly wrong value is refused
// as before.
import { capture } from '../../support/captured.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { isObject, type Fields } from '../round-3/support/ticket-fields.ts';
import { nestedView, viewTicketBody } from '../round-6/support/body-view.ts';

const TTL_SEC_MAX = 432_000;
const DAY_SECONDS = 86_400;
/** The units of the `ms` package, in seconds. */
/** The words YAML 1.1 reads as booleans. */
const YAML_BOOLEANS: Record<string, boolean> = { yes: true, no: false, on: true, off: false, y: true, n: false };
const AUTHORIZE_QUERY_MAX = 256;
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;
const DURATION_UNITS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86_400 };

/** The body with member `name` replaced by `repair(value)` where it gives one; else the body itself. */
function repaired(body: Fields, name: string, repair: (value: unknown) => unknown): Fields {
  if (!(name in body)) return body;
  const value = repair(body[name]);
  return value === undefined ? body : { ...body, [name]: value };
}

export const ticketBodyFaults = heldOutFamily([
  {
    id: 'ho14-ttl-sec-max-in-whole-days',
    clause: 'sso-ticket.body.ttl_sec.range',
    level: 'contract',
    bug: `ttl_sec's maximum checked in whole days, Math.floor(ttl_sec / ${DAY_SECONDS}) <= 5, the way the product states it ("five days"): a ttl_sec of ${TTL_SEC_MAX + 1} (up to ${6 * DAY_SECONDS - 1}) gets a ticket instead of 400; ${6 * DAY_SECONDS} is still refused.`,
    install: (app) =>
      viewTicketBody(app, (body) =>
        repaired(body, 'ttl_sec', (value) =>
          Number.isInteger(value) && (value as number) > TTL_SEC_MAX && Math.floor((value as number) / DAY_SECONDS) <= 5
            ? TTL_SEC_MAX
            : undefined,
        ),
      ),
  },
  {
    id: 'ho14-token-lifetime-duration-string',
    clause: 'sso-ticket.body.provisioning_config.token_lifetime.type',
    level: 'contract',
    bug: 'provisioning_config.token_lifetime passed through the `ms` duration parser (divided by 1000) when it is a string, as the service\'s configuration values are: a token_lifetime of "15m" (or "1h") gets a ticket instead of 400; "soon" is still refused.',
    install: (app) =>
      viewTicketBody(app, (body) =>
        nestedView(body, 'provisioning_config', (config) =>
          repaired(config, 'token_lifetime', (value) => {
            const match = typeof value === 'string' ? /^(\d+)\s*([smhd])$/.exec(value) : null;
            return match ? Number(match[1]) * DURATION_UNITS[match[2]!]! : undefined;
          }),
        ),
      ),
  },
  {
    id: 'ho14-enabled-organizations-single-wrapped',
    clause: 'sso-ticket.body.enabled_organizations.type',
    level: 'contract',
    bug: 'enabled_organizations validated by a schema written with Joi\'s array().single(), which wraps a lone item in a list: enabled_organizations {"organization_id": "org_..."} (one object, no list) gets a ticket instead of 400; a string "org_..." is still refused.',
    install: (app) =>
      viewTicketBody(app, (body) => repaired(body, 'enabled_organizations', (value) => (isObject(value) ? [value] : undefined))),
  },
  {
    id: 'ho14-is-domain-connection-tinyint',
    clause: 'sso-ticket.body.nested-rules',
    level: 'observed',
    bug: "connection_config.is_domain_connection checked by the column's type, a TINYINT(1) that MySQL calls boolean: an is_domain_connection of 1 (or 0) gets a ticket instead of 400; 2 is still refused.",
    install: (app) =>
      viewTicketBody(app, (body) =>
        nestedView(body, 'connection_config', (config) =>
          repaired(config, 'is_domain_connection', (value) => (value === 0 || value === 1 ? value === 1 : undefined)),
        ),
      ),
  },
  {
    id: 'ho14-domain-verification-empty-defaulted',
    clause: 'sso-ticket.body.nested-rules',
    level: 'observed',
    bug: 'domain_aliases_config.domain_verification defaulted with value || "none" before the enum check, so the empty string an unset form select sends counts as unset: domain_verification "" gets a ticket instead of 400; "maybe" is still refused.',
    install: (app) =>
      viewTicketBody(app, (body) =>
        nestedView(body, 'domain_aliases_config', (config) =>
          repaired(config, 'domain_verification', (value) => (value === '' ? 'none' : undefined)),
        ),
      ),
  },
  {
    id: 'ho14-use-for-discovery-yaml-words',
    clause: 'sso-ticket.body.use_for_organization_discovery.type',
    level: 'contract',
    bug: 'use_for_organization_discovery read through the YAML 1.1 loader that reads the service\'s settings, for which yes/no and on/off are booleans: a use_for_organization_discovery of "yes" (or "off") gets a ticket instead of 400; "maybe" is still refused.',
    install: (app) =>
      viewTicketBody(app, (body) =>
        repaired(body, 'use_for_organization_discovery', (value) =>
          typeof value === 'string' && Object.hasOwn(YAML_BOOLEANS, value) ? YAML_BOOLEANS[value] : undefined,
        ),
      ),
  },
  {
    id: 'ho14-domain-aliases-config-truthy-check',
    clause: 'sso-ticket.body.domain_aliases_config.type',
    level: 'contract',
    bug: 'domain_aliases_config validated only inside if (body.domain_aliases_config) { ... }, a truthiness test where a presence test was meant: a domain_aliases_config of null (or false, 0, "") gets a ticket instead of 400; "none" (a string, truthy) is still refused.',
    install: (app) =>
      viewTicketBody(app, (body) => {
        if (!('domain_aliases_config' in body) || body.domain_aliases_config) return body;
        const { domain_aliases_config: _dropped, ...rest } = body;
        return rest;
      }),
  },
  {
    id: 'ho14-connection-id-relation-object',
    clause: 'sso-ticket.body.connection_id.type',
    level: 'contract',
    bug: 'connection_id bound by the ORM\'s relation binder, which also takes a relation in its object form { id }: a connection_id of {"id": "con_..."} gets a ticket instead of 400; {"name": "con_..."} is still refused.',
    install: (app) =>
      viewTicketBody(app, (body) =>
        repaired(body, 'connection_id', (value) =>
          isObject(value) && Object.keys(value).length === 1 && typeof value.id === 'string' ? value.id : undefined,
        ),
      ),
  },
  {
    id: 'ho14-authorizequery-question-mark-dropped',
    clause: 'sso-ticket.body.nested-rules',
    level: 'observed',
    bug: `connection_config.options.idpinitiated.client_authorizequery measured after a query helper takes off a leading "?" (new URLSearchParams(value) ignores it): a value of ${AUTHORIZE_QUERY_MAX + 1} characters starting with "?" gets a ticket instead of 400; one of ${AUTHORIZE_QUERY_MAX + 2} is still refused.`,
    install: (app) =>
      viewTicketBody(app, (body) =>
        nestedView(body, 'connection_config', (config) =>
          nestedView(config, 'options', (options) =>
            nestedView(options, 'idpinitiated', (idp) =>
              repaired(idp, 'client_authorizequery', (value) =>
                typeof value === 'string' && value.startsWith('?') ? value.slice(1) : undefined,
              ),
            ),
          ),
        ),
      ),
  },
  {
    id: 'ho14-client-protocol-saml-alias',
    clause: 'sso-ticket.body.nested-rules',
    level: 'observed',
    bug: 'options.idpinitiated.client_protocol looked up in the strategy table of the SAML library, which registers its protocol under both "saml" and "samlp": a client_protocol of "saml" gets a ticket instead of 400; "saml2" is still refused.',
    install: (app) =>
      viewTicketBody(app, (body) =>
        nestedView(body, 'connection_config', (config) =>
          nestedView(config, 'options', (options) =>
            nestedView(options, 'idpinitiated', (idp) =>
              repaired(idp, 'client_protocol', (value) => (value === 'saml' ? 'samlp' : undefined)),
            ),
          ),
        ),
      ),
  },
  {
    id: 'ho14-ttl-sec-expiry-date',
    clause: 'sso-ticket.body.ttl_sec.type',
    level: 'contract',
    bug: 'ttl_sec also taken as the time the ticket should expire, an ISO date-time turned into the seconds left (a convenience of the admin UI\'s date picker) before the checks: a ttl_sec of "<a date-time an hour from now>" gets a ticket instead of 400; "tomorrow" (no date-time) is still refused.',
    install: (app) => {
      const clock = capture(app, 'clock');
      viewTicketBody(app, (body) =>
        repaired(body, 'ttl_sec', (value) => {
          if (typeof value !== 'string' || !ISO_DATE_TIME.test(value)) return undefined;
          const seconds = Math.round((Date.parse(value) - clock().now()) / 1000);
          return Number.isFinite(seconds) ? seconds : undefined;
        }),
      );
    },
  },
]);
