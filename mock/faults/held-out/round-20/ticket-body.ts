// The ticket body, at every depth: enabled_clients items coerced from numbers (Jackson's string
// coercion), enabled_organizations sent as a map keyed by organization id, domain_verification read
// through Rails' FALSE_VALUES, provisioning scopes sent as a set object, token_lifetime rounded half
// to even, connection_config made from a string by a single-string creator, and ttl_sec clamped to
// its maximum. Each lets its near miss through; a plainly wrong value is refused as before.
import { editJsonBody } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';

type Fields = Record<string, unknown>;
const isObject = (value: unknown): value is Fields => value !== null && typeof value === 'object' && !Array.isArray(value);
/** ActiveModel::Type::Boolean::FALSE_VALUES, the strings of it. */
const RAILS_FALSE = new Set(['0', 'f', 'F', 'false', 'FALSE', 'off', 'OFF']);
const TTL_MAX = 432_000;

/** The body with `edit` applied to the object at `field`, when it is one. */
const atObject = (body: unknown, field: string, edit: (value: Fields) => Fields | undefined): unknown => {
  if (!isObject(body) || !isObject(body[field])) return body;
  const edited = edit(body[field]);
  return edited === undefined ? body : { ...body, [field]: edited };
};
/** C#'s Math.Round / Convert.ToInt32: to the nearest integer, halves to the even one. */
const roundHalfEven = (value: number) => {
  const floor = Math.floor(value);
  const fraction = value - floor;
  if (fraction !== 0.5) return Math.round(value);
  return floor % 2 === 0 ? floor : floor + 1;
};

export const ticketBodyFaults = heldOutFamily([
  {
    id: 'ho20-enabled-clients-number-coerced',
    clause: 'sso-ticket.body.enabled_clients.type',
    level: 'contract',
    bug: 'enabled_clients bound to List<String> by Jackson, whose StringDeserializer takes a JSON number as its text: [12345] creates the ticket (client "12345") instead of 400; [{}] is still refused.',
    install: (app) =>
      editJsonBody(app, 'sso-ticket', (body) =>
        isObject(body) && Array.isArray(body.enabled_clients) && body.enabled_clients.some((item) => typeof item === 'number')
          ? { ...body, enabled_clients: body.enabled_clients.map((item: unknown) => (typeof item === 'number' ? String(item) : item)) }
          : body,
      ),
  },
  {
    id: 'ho20-enabled-organizations-keyed-map',
    clause: 'sso-ticket.body.enabled_organizations.type',
    level: 'contract',
    bug: 'enabled_organizations accepted as a map keyed by organization id (a Rails strong-params hash turned into items with .map { |id, attrs| attrs.merge(organization_id: id) }): {"org_...": {"assign_membership_on_login": true}} creates the ticket instead of 400 for an object; {"org_...": true} is still refused.',
    install: (app) =>
      editJsonBody(app, 'sso-ticket', (body) => {
        if (!isObject(body) || !isObject(body.enabled_organizations)) return body;
        const entries = Object.entries(body.enabled_organizations);
        if (entries.length === 0 || !entries.every(([, attributes]) => isObject(attributes))) return body;
        return { ...body, enabled_organizations: entries.map(([id, attributes]) => ({ ...(attributes as Fields), organization_id: id })) };
      }),
  },
  {
    id: 'ho20-domain-verification-rails-false-values',
    clause: 'sso-ticket.body.enabled_features.domain_verification.type',
    level: 'contract',
    bug: 'enabled_features.domain_verification cast with a check against ActiveModel\'s FALSE_VALUES ("0", "f", "false", "off" ...) before the type check: "domain_verification": "off" creates the ticket instead of 400; "on" is still refused.',
    install: (app) =>
      editJsonBody(app, 'sso-ticket', (body) =>
        atObject(body, 'enabled_features', (features) =>
          typeof features.domain_verification === 'string' && RAILS_FALSE.has(features.domain_verification)
            ? { ...features, domain_verification: false }
            : undefined,
        ),
      ),
  },
  {
    id: 'ho20-provisioning-scopes-set-object',
    clause: 'sso-ticket.body.provisioning_config.scopes.type',
    level: 'contract',
    bug: 'provisioning_config.scopes taken as a set when it is an object of true values (a Go map[string]bool, or a Ruby Set serialised as a hash): {"get:users": true} creates the ticket instead of 400; {"get:users": "yes"} is still refused.',
    install: (app) =>
      editJsonBody(app, 'sso-ticket', (body) =>
        atObject(body, 'provisioning_config', (config) =>
          isObject(config.scopes) && Object.keys(config.scopes).length > 0 && Object.values(config.scopes).every((value) => value === true)
            ? { ...config, scopes: Object.keys(config.scopes) }
            : undefined,
        ),
      ),
  },
  {
    id: 'ho20-token-lifetime-half-even',
    clause: 'sso-ticket.body.provisioning_config.token_lifetime.type',
    level: 'contract',
    bug: "token_lifetime converted with Convert.ToInt32 (banker's rounding, halves to even) instead of being checked as an integer: 899.5 is taken as 900 and the ticket created instead of 400; 898.5 (taken as 898, under the minimum) is still refused.",
    install: (app) =>
      editJsonBody(app, 'sso-ticket', (body) =>
        atObject(body, 'provisioning_config', (config) =>
          typeof config.token_lifetime === 'number' && !Number.isInteger(config.token_lifetime) && Number.isFinite(config.token_lifetime)
            ? { ...config, token_lifetime: roundHalfEven(config.token_lifetime) }
            : undefined,
        ),
      ),
  },
  {
    id: 'ho20-connection-config-string-creator',
    clause: 'sso-ticket.body.connection_config.type',
    level: 'contract',
    bug: 'ConnectionConfig given a single-String @JsonCreator (its name) for callers that only name the connection: "connection_config": "held-out-idp" creates the ticket with a connection of that name instead of 400 for a string; "connection_config": 42 is still refused.',
    install: (app) =>
      editJsonBody(app, 'sso-ticket', (body) =>
        isObject(body) && typeof body.connection_config === 'string'
          ? { ...body, connection_config: { name: body.connection_config } }
          : body,
      ),
  },
  {
    id: 'ho20-ttl-sec-clamped-to-maximum',
    clause: 'sso-ticket.body.ttl_sec.range',
    level: 'contract',
    bug: `ttl_sec passed through Math.min(ttl, ${TTL_MAX}) (a Rust .min() meant as a guard) instead of being refused above the maximum: ${TTL_MAX + 1} creates a ticket of ${TTL_MAX} seconds instead of 400; -1 is still refused.`,
    install: (app) =>
      editJsonBody(app, 'sso-ticket', (body) =>
        isObject(body) && typeof body.ttl_sec === 'number' && Number.isInteger(body.ttl_sec) && body.ttl_sec > TTL_MAX
          ? { ...body, ttl_sec: TTL_MAX }
          : body,
      ),
  },
]);
