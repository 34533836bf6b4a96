// The ticket request's body at every depth, alone and with other fields: a list whose first item
// alone is checked, flags that take "true", 0/1 or null, an integer typed number, a range forgotten
// in the edit-connection branch, a field checked only beside another, an array where an object
// goes (a list of one unwrapped, an array skipped), a rule that a new connection names its clients,
// a JSON string parsed again, and the observed nested rules (token_lifetime's null, the connection
// name's hyphens). Each changes one field's rule; the others keep theirs.
import { closedLimit } from '../../../../specs/index.ts';
import { editBodySchema, fieldNode } from '../../support/check-edits.ts';
import { editJsonBody } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';

const ttlSec = closedLimit('sso-ticket.body.ttl_sec.range');

/** The connection-name rule with its last group's repetition loosened (`*` for `+`): a trailing or doubled hyphen passes. */
const LOOSE_CONNECTION_NAME = '^[A-Za-z0-9]+(-[A-Za-z0-9]*)*$';

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

/** The body with each object item of enabled_organizations changed by `edit` (other items as they are). */
function eachOrganization(body: Body, edit: (item: Body) => Body): Body {
  const list = body.enabled_organizations;
  if (!Array.isArray(list)) return body;
  const items = list.map((item: unknown) => (isObject(item) ? edit(item) : item));
  return items.every((item, i) => item === list[i]) ? body : { ...body, enabled_organizations: items };
}

const BOOLEAN_TEXT: Record<string, boolean> = { true: true, false: false };
const BOOLEAN_BIT: Record<number, boolean> = { 1: true, 0: false };

export const ticketBodyFaults = heldOutFamily([
  {
    id: 'ho2-enabled-organizations-first-item-only',
    clause: 'sso-ticket.body.enabled_organizations.type',
    level: 'contract',
    bug: 'enabled_organizations validated with a tuple schema ("items": [item], the old draft\'s form, which checks the first item only): a list whose first item is a valid organization and whose later items are strings, numbers or anything else is accepted; a list whose first item is wrong is still refused.',
    install: (app) =>
      editJsonBody(
        app,
        'sso-ticket',
        editTicketObject((body) =>
          Array.isArray(body.enabled_organizations) && body.enabled_organizations.length > 1
            ? { ...body, enabled_organizations: body.enabled_organizations.slice(0, 1) }
            : body,
        ),
      ),
  },
  {
    id: 'ho2-assign-membership-as-text',
    clause: 'sso-ticket.body.enabled_organizations.assign_membership_on_login.type',
    level: 'contract',
    bug: 'enabled_organizations[].assign_membership_on_login read by a converter shared with query strings, before the body is validated: the strings "true" and "false" are accepted as booleans; other strings and numbers are still refused.',
    install: (app) =>
      editJsonBody(
        app,
        'sso-ticket',
        editTicketObject((body) =>
          eachOrganization(body, (item) =>
            typeof item.assign_membership_on_login === 'string' && Object.hasOwn(BOOLEAN_TEXT, item.assign_membership_on_login)
              ? { ...item, assign_membership_on_login: BOOLEAN_TEXT[item.assign_membership_on_login] }
              : item,
          ),
        ),
      ),
  },
  {
    id: 'ho2-show-as-button-null-as-false',
    clause: 'sso-ticket.body.enabled_organizations.show_as_button.type',
    level: 'contract',
    bug: 'enabled_organizations[].show_as_button defaulted with "?? false" before the body is validated: show_as_button null is accepted as false; a string or number is still refused.',
    install: (app) =>
      editJsonBody(
        app,
        'sso-ticket',
        editTicketObject((body) =>
          eachOrganization(body, (item) => (item.show_as_button === null ? { ...item, show_as_button: false } : item)),
        ),
      ),
  },
  {
    id: 'ho2-domain-verification-flag-as-bit',
    clause: 'sso-ticket.body.enabled_features.domain_verification.type',
    level: 'contract',
    bug: "enabled_features.domain_verification mapped onto the tenant's setting, a 0/1 column, by a converter that runs before validation: 1 and 0 are accepted as true and false; 2, strings and other types are still refused.",
    install: (app) =>
      editJsonBody(
        app,
        'sso-ticket',
        editTicketObject((body) => {
          const features = body.enabled_features;
          if (
            !isObject(features) ||
            typeof features.domain_verification !== 'number' ||
            !Object.hasOwn(BOOLEAN_BIT, features.domain_verification)
          )
            return body;
          return { ...body, enabled_features: { ...features, domain_verification: BOOLEAN_BIT[features.domain_verification] } };
        }),
      ),
  },
  {
    id: 'ho2-token-lifetime-typed-number',
    clause: 'sso-ticket.body.provisioning_config.token_lifetime.type',
    level: 'contract',
    bug: 'provisioning_config.token_lifetime typed "number" where "integer" was meant: a lifetime with a fraction (900.5) is accepted; strings and booleans are still refused, and the observed minimum still holds.',
    install: (app) =>
      editBodySchema(app, 'sso-ticket', (body) => {
        const node = fieldNode(body, 'provisioning_config.token_lifetime');
        node.type = Array.isArray(node.type) ? node.type.map((type: unknown) => (type === 'integer' ? 'number' : type)) : 'number';
      }),
  },
  {
    id: 'ho2-ttl-sec-range-unchecked-with-connection-id',
    clause: 'sso-ticket.body.ttl_sec.range',
    level: 'contract',
    bug: `The edit-connection branch (connection_id given) validates with a schema of its own that forgot ttl_sec's bounds and clamps the value later: with connection_id, a ttl_sec outside ${ttlSec.min}..${ttlSec.max} (${ttlSec.max + 1}, -1) is accepted; without it, it is still refused with 400.`,
    install: (app) =>
      editJsonBody(
        app,
        'sso-ticket',
        editTicketObject((body) =>
          body.connection_id !== undefined &&
          Number.isInteger(body.ttl_sec) &&
          ((body.ttl_sec as number) < ttlSec.min || (body.ttl_sec as number) > ttlSec.max)
            ? { ...body, ttl_sec: Math.min(ttlSec.max, Math.max(ttlSec.min, body.ttl_sec as number)) }
            : body,
        ),
      ),
  },
  {
    id: 'ho2-organization-discovery-checked-only-with-domain-aliases',
    clause: 'sso-ticket.body.use_for_organization_discovery.type',
    level: 'contract',
    bug: 'use_for_organization_discovery, which is about verified domains, read and validated by the domain_aliases_config handler only: without domain_aliases_config, a value of any type ("yes", 1, {}) is dropped unread and the ticket created; with domain_aliases_config it is checked.',
    install: (app) =>
      editJsonBody(
        app,
        'sso-ticket',
        editTicketObject((body) =>
          body.use_for_organization_discovery !== undefined && body.domain_aliases_config === undefined
            ? without(body, 'use_for_organization_discovery')
            : body,
        ),
      ),
  },
  {
    id: 'ho2-connection-config-list-of-one-unwrapped',
    clause: 'sso-ticket.body.connection_config.type',
    level: 'contract',
    bug: 'A body binder that, where it expects one object, takes the first element of a list of one: connection_config sent as [{...}] is accepted as that object; a string, a number or a longer list is still refused.',
    install: (app) =>
      editJsonBody(
        app,
        'sso-ticket',
        editTicketObject((body) =>
          Array.isArray(body.connection_config) && body.connection_config.length === 1 && isObject(body.connection_config[0])
            ? { ...body, connection_config: body.connection_config[0] }
            : body,
        ),
      ),
  },
  {
    id: 'ho2-domain-aliases-config-array-skipped',
    clause: 'sso-ticket.body.domain_aliases_config.type',
    level: 'contract',
    bug: 'domain_aliases_config guarded with typeof === "object", which an array passes, and then read field by field: an array there (empty or not) has none of the fields and is skipped as if absent, so the ticket is created; a string or number is still refused.',
    install: (app) =>
      editJsonBody(
        app,
        'sso-ticket',
        editTicketObject((body) => (Array.isArray(body.domain_aliases_config) ? without(body, 'domain_aliases_config') : body)),
      ),
  },
  {
    id: 'ho2-new-connection-requires-enabled-clients',
    clause: 'sso-ticket.body.optional',
    level: 'contract',
    bug: 'A product rule that a new connection must name the applications it is enabled for: a body with connection_config and without enabled_clients is refused with 400, though every field is optional; {} and a body with both are accepted.',
    install: (app) =>
      editBodySchema(app, 'sso-ticket', (body) => {
        body.dependentRequired = { connection_config: ['enabled_clients'] };
      }),
  },
  {
    id: 'ho2-json-string-body-parsed-again',
    clause: 'sso-ticket.body.object',
    level: 'contract',
    bug: 'A body reader that "helps" clients which stringify their JSON twice: a body that is a JSON string holding a JSON object ("{\\"ttl_sec\\":3600}") is parsed again and creates a ticket, instead of being refused as JSON that is not an object; other strings are still refused.',
    install: (app) =>
      editJsonBody(app, 'sso-ticket', (value) => {
        if (typeof value !== 'string') return value;
        try {
          const inner: unknown = JSON.parse(value);
          return isObject(inner) ? inner : value;
        } catch {
          return value;
        }
      }),
  },
  {
    id: 'ho2-token-lifetime-null-refused',
    clause: 'sso-ticket.body.nested-rules',
    level: 'observed',
    bug: 'provisioning_config.token_lifetime typed from the spec\'s integer alone: null, which the service documents as "provisioning tokens never expire", is refused with 400.',
    install: (app) =>
      editBodySchema(app, 'sso-ticket', (body) => {
        fieldNode(body, 'provisioning_config.token_lifetime').type = 'integer';
      }),
  },
  {
    id: 'ho2-connection-name-loose-hyphens',
    clause: 'sso-ticket.body.nested-rules',
    level: 'observed',
    bug: `The connection-name pattern written ${LOOSE_CONNECTION_NAME} (a * where + was meant): connection_config.name with a trailing or doubled hyphen ("acme-", "acme--sso") is accepted; a leading hyphen or another character is still refused.`,
    install: (app) =>
      editBodySchema(app, 'sso-ticket', (body) => {
        fieldNode(body, 'connection_config.name').pattern = LOOSE_CONNECTION_NAME;
      }),
  },
]);
