// The ticket request's body, field by field and at every depth: a type coerced or a null taken for
// "omitted", a list that must not be empty or whose items lost their type, an object taken for a
// list of one, a nested object validated only together with another field, and the observed
// nested rules off by one or compared loosely. Each changes one field's rule; every other field
// keeps its own.
import { closedLimit, type JsonObject } from '../../../specs/index.ts';
import { editBodySchema, fieldNode } from '../support/check-edits.ts';
import { editJsonBody } from '../support/route-edits.ts';
import { heldOutFamily } from './held-out-fault.ts';

const ttlSec = closedLimit('sso-ticket.body.ttl_sec.range');

/** The shortest ticket lifetime a product rule allowed, in seconds ("a ticket lives at least a minute"). */
const SHORTEST_TICKET_SECONDS = 60;

type Body = Record<string, unknown>;

function isObject(value: unknown): value is Body {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Edits a JSON ticket body that is an object; other bodies pass unchanged. */
function editTicketObject(edit: (body: Body) => Body): (value: unknown) => unknown {
  return (value) => (isObject(value) ? edit(value) : value);
}

function without(body: Body, field: string): Body {
  const { [field]: _dropped, ...rest } = body;
  return rest;
}

export const ticketBodyFaults = heldOutFamily([
  {
    id: 'ho-ttl-sec-numeric-string-coerced',
    clause: 'sso-ticket.body.ttl_sec.type',
    level: 'contract',
    bug: 'JSON bodies validated with the type coercion meant for form fields: a ttl_sec sent as a numeric string ("3600") is taken for the number and accepted; a string that is not a number is still refused, and the range still holds.',
    install: (app) =>
      editJsonBody(
        app,
        'sso-ticket',
        editTicketObject((body) =>
          typeof body.ttl_sec === 'string' && /^-?\d+$/.test(body.ttl_sec) ? { ...body, ttl_sec: Number(body.ttl_sec) } : body,
        ),
      ),
  },
  {
    id: 'ho-ttl-sec-null-as-omitted',
    clause: 'sso-ticket.body.ttl_sec.type',
    level: 'contract',
    bug: 'ttl_sec read as "body.ttl_sec ?? default" before the body is validated: a ttl_sec of null is taken for an omitted one and the ticket is created with the default lifetime (other wrong types are still refused).',
    install: (app) =>
      editJsonBody(
        app,
        'sso-ticket',
        editTicketObject((body) => (body.ttl_sec === null ? without(body, 'ttl_sec') : body)),
      ),
  },
  {
    id: 'ho-ttl-sec-under-a-minute-refused',
    clause: 'sso-ticket.body.ttl_sec.range',
    level: 'contract',
    bug: `A product rule that a ticket lives at least a minute: ttl_sec from ${ttlSec.min + 1} to ${SHORTEST_TICKET_SECONDS - 1} is refused with 400 (${ttlSec.min}, the default, and ${SHORTEST_TICKET_SECONDS} up to the maximum are accepted).`,
    install: (app) =>
      editBodySchema(app, 'sso-ticket', (body) => {
        fieldNode(body, 'ttl_sec').not = { minimum: ttlSec.min + 1, maximum: SHORTEST_TICKET_SECONDS - 1 };
      }),
  },
  {
    id: 'ho-enabled-clients-empty-refused',
    clause: 'sso-ticket.body.enabled_clients.type',
    level: 'contract',
    bug: 'A schema generated with minItems: 1 on every list: an empty enabled_clients, an array of strings like any other, is refused with 400.',
    install: (app) =>
      editBodySchema(app, 'sso-ticket', (body) => {
        fieldNode(body, 'enabled_clients').minItems = 1;
      }),
  },
  {
    id: 'ho-enabled-clients-items-untyped',
    clause: 'sso-ticket.body.enabled_clients.type',
    level: 'contract',
    bug: 'A schema whose enabled_clients says "array" and forgets its items: a list holding a number, a boolean or an object is accepted (a value that is not a list is still refused).',
    install: (app) =>
      editBodySchema(app, 'sso-ticket', (body) => {
        fieldNode(body, 'enabled_clients').items = {};
      }),
  },
  {
    id: 'ho-enabled-organizations-object-wrapped',
    clause: 'sso-ticket.body.enabled_organizations.type',
    level: 'contract',
    bug: 'A body binder that turns a single value into a list of one where a list is expected: enabled_organizations sent as one object, not an array, is accepted as a list of that object (a string or number there is still refused).',
    install: (app) =>
      editJsonBody(
        app,
        'sso-ticket',
        editTicketObject((body) =>
          isObject(body.enabled_organizations) ? { ...body, enabled_organizations: [body.enabled_organizations] } : body,
        ),
      ),
  },
  {
    id: 'ho-enabled-features-unchecked-without-connection-id',
    clause: 'sso-ticket.body.enabled_features.type',
    level: 'contract',
    bug: '"enabled_features applies only when connection_id is given" implemented by dropping it unread otherwise: without connection_id, an enabled_features of any type (a string, a list, an object with wrong members) is accepted; with connection_id it is checked.',
    install: (app) =>
      editJsonBody(
        app,
        'sso-ticket',
        editTicketObject((body) =>
          body.enabled_features !== undefined && body.connection_id === undefined ? without(body, 'enabled_features') : body,
        ),
      ),
  },
  {
    id: 'ho-provisioning-config-unchecked-unless-enabled',
    clause: 'sso-ticket.body.provisioning_config.type',
    level: 'contract',
    bug: 'provisioning_config read (and validated) only when enabled_features.provisioning is true: otherwise a provisioning_config of any type, or with wrongly typed members, is accepted and ignored.',
    install: (app) =>
      editJsonBody(
        app,
        'sso-ticket',
        editTicketObject((body) => {
          const enabled = isObject(body.enabled_features) && body.enabled_features.provisioning === true;
          return body.provisioning_config !== undefined && !enabled ? without(body, 'provisioning_config') : body;
        }),
      ),
  },
  {
    id: 'ho-organization-id-not-required',
    clause: 'sso-ticket.body.nested-rules',
    level: 'observed',
    bug: 'A schema that lists organization_id among the properties of an enabled_organizations item and forgets to require it: an item without organization_id ({} or only its booleans) is accepted.',
    install: (app) =>
      editBodySchema(app, 'sso-ticket', (body) => {
        delete (fieldNode(body, 'enabled_organizations').items as JsonObject).required;
      }),
  },
  {
    id: 'ho-token-lifetime-minimum-exclusive',
    clause: 'sso-ticket.body.nested-rules',
    level: 'observed',
    bug: '"token_lifetime at least 900" written as exclusiveMinimum: a provisioning_config.token_lifetime of exactly 900 seconds is refused with 400 (901 and null are accepted).',
    install: (app) =>
      editBodySchema(app, 'sso-ticket', (body) => {
        const node = fieldNode(body, 'provisioning_config.token_lifetime');
        node.exclusiveMinimum = node.minimum;
        delete node.minimum;
      }),
  },
  {
    id: 'ho-provisioning-scopes-case-insensitive',
    clause: 'sso-ticket.body.nested-rules',
    level: 'observed',
    bug: 'provisioning_config.scopes lower-cased before they are compared with the allowed values: "GET:users" or "Post:Groups" is accepted as if it were get:users or post:groups.',
    install: (app) =>
      editJsonBody(
        app,
        'sso-ticket',
        editTicketObject((body) => {
          const config = body.provisioning_config;
          if (!isObject(config) || !Array.isArray(config.scopes)) return body;
          const scopes = config.scopes.map((s: unknown) => (typeof s === 'string' ? s.toLowerCase() : s));
          return { ...body, provisioning_config: { ...config, scopes } };
        }),
      ),
  },
  {
    id: 'ho-connection-config-name-max-127',
    clause: 'sso-ticket.body.nested-rules',
    level: 'observed',
    bug: 'A name buffer of 128 bytes that keeps one for the terminating NUL: a connection_config.name at the 128-character maximum is refused with 400 (127 is accepted).',
    install: (app) =>
      editBodySchema(app, 'sso-ticket', (body) => {
        const node = fieldNode(body, 'connection_config.name');
        node.maxLength = (node.maxLength as number) - 1;
      }),
  },
]);
