// The ticket request at every depth, alone and with other fields: client ids given as objects,
// organizations as an object keyed by index, one item flag's check lost to a copied line, the
// provisioning flag read only beside sso, feature flags given as {enabled}, a token lifetime of
// false, an HTML checkbox's "on" in form bodies, and the observed rules (provisioning scopes
// flattened, the lifetime's minimum counted in minutes). Each changes one field's rule; the others
// keep theirs.
import type { JsonObject } from '../../../../specs/index.ts';
import { schema } from '../../../../specs/index.ts';
import { isFormMediaType } from '../../../stages/json-body.ts';
import { editBodySchema, fieldNode } from '../../support/check-edits.ts';
import { editRequests } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { editNested, editTicketFields, isObject, without } from '../round-3/support/ticket-fields.ts';

const BODY_SCHEMA = 'SsoTicketRequest';
/** The features enabled_features has, each a flag. */
const FEATURES = Object.keys((fieldNode(schema(BODY_SCHEMA, 'contract'), 'enabled_features').properties as JsonObject) ?? {});
/** The shortest provisioning token lifetime the service's description allows, in seconds. */
const LIFETIME_MIN = fieldNode(schema(BODY_SCHEMA, 'observed'), 'provisioning_config.token_lifetime').minimum as number;
const DISCOVERY = 'use_for_organization_discovery';
/** What an HTML checkbox sends when it is ticked and has no value of its own. */
const CHECKBOX_ON = 'on';

export const ticketBodyFaults = heldOutFamily([
  {
    id: 'ho4-enabled-clients-object-items-unwrapped',
    clause: 'sso-ticket.body.enabled_clients.type',
    level: 'contract',
    bug: 'enabled_clients read by a binder shared with the connections API, whose newer form lists clients as objects: an item {"client_id": "<id>"}, an object and not a string, is taken for that id and the ticket created instead of 400; an object without a string client_id is still refused.',
    install: (app) =>
      editTicketFields(app, (body) => {
        const list: unknown = body.enabled_clients;
        if (!Array.isArray(list) || !list.some(isClientObject)) return body;
        return { ...body, enabled_clients: (list as unknown[]).map((item) => (isClientObject(item) ? item.client_id : item)) };
      }),
  },
  {
    id: 'ho4-enabled-organizations-index-object',
    clause: 'sso-ticket.body.enabled_organizations.type',
    level: 'contract',
    bug: 'enabled_organizations read with Object.values() when it is not an array, to take the {"0": ..., "1": ...} objects a query-string parser makes of long lists: an object keyed by indices, not an array, is accepted as the list of its values instead of 400; an object with other keys, or a string, is still refused.',
    install: (app) =>
      editTicketFields(app, (body) => {
        const value = body.enabled_organizations;
        if (!isObject(value)) return body;
        const keys = Object.keys(value);
        if (keys.length === 0 || !keys.every((key) => /^\d+$/.test(key))) return body;
        return { ...body, enabled_organizations: keys.sort((a, b) => Number(a) - Number(b)).map((key) => value[key]) };
      }),
  },
  {
    id: 'ho4-assign-membership-check-copied',
    clause: 'sso-ticket.body.enabled_organizations.assign_membership_on_login.type',
    level: 'contract',
    bug: "An organization item's checks written by copying show_as_button's line and renaming the key in its message only: assign_membership_on_login is never type-checked, so a string or a number there is accepted instead of 400; show_as_button is still checked.",
    install: (app) =>
      editBodySchema(app, 'sso-ticket', (body) => {
        delete fieldNode(body, 'enabled_organizations.assign_membership_on_login').type;
      }),
  },
  {
    id: 'ho4-provisioning-flag-read-only-with-sso',
    clause: 'sso-ticket.body.enabled_features.provisioning.type',
    level: 'contract',
    bug: 'enabled_features read as a tree in which provisioning is a sub-feature of sso, its flag read (and checked) only when sso is true: with sso false or absent, a provisioning of any type ("yes", 1) is dropped unread and the ticket created instead of 400; with sso true it is still refused.',
    install: (app) =>
      editTicketFields(app, (body) =>
        editNested(body, 'enabled_features', (features) =>
          features.sso !== true && 'provisioning' in features ? without(features, 'provisioning') : features,
        ),
      ),
  },
  {
    id: 'ho4-feature-flag-object-unwrapped',
    clause: 'sso-ticket.body.enabled_features.sso.type',
    level: 'contract',
    bug: `Feature flags read by the tenant-settings helper, where each flag is an object {"enabled": <boolean>}: enabled_features.sso (or another of ${FEATURES.join(', ')}) given as {"enabled": true}, an object and not a boolean, is accepted as true instead of 400; an object of another shape is still refused.`,
    install: (app) =>
      editTicketFields(app, (body) =>
        editNested(body, 'enabled_features', (features) => {
          const flags = FEATURES.filter((name) => isEnabledObject(features[name]));
          return flags.length === 0
            ? features
            : { ...features, ...Object.fromEntries(flags.map((name) => [name, (features[name] as { enabled: boolean }).enabled])) };
        }),
      ),
  },
  {
    id: 'ho4-token-lifetime-false-as-never',
    clause: 'sso-ticket.body.provisioning_config.token_lifetime.type',
    level: 'contract',
    bug: 'provisioning_config.token_lifetime normalised with "lifetime === false ? null : lifetime" before the body is validated, so that "no expiry" can be written false: false, a boolean, is accepted as null (tokens that never expire) instead of 400; true is still refused.',
    install: (app) =>
      editTicketFields(app, (body) =>
        editNested(body, 'provisioning_config', (config) =>
          config.token_lifetime === false ? { ...config, token_lifetime: null } : config,
        ),
      ),
  },
  {
    id: 'ho4-form-checkbox-on-as-true',
    clause: 'sso-ticket.body.use_for_organization_discovery.type',
    level: 'contract',
    bug: `Form-encoded ticket bodies read by a converter written for HTML forms, which takes a ticked checkbox's "${CHECKBOX_ON}" for true: ${DISCOVERY}=${CHECKBOX_ON} is accepted as true instead of 400; another word is still refused, and "${CHECKBOX_ON}" in a JSON body too.`,
    install: (app) =>
      editRequests(app, 'sso-ticket', (exchange) => {
        if (!isFormMediaType(exchange.headers['content-type'])) return exchange;
        const form = new URLSearchParams(exchange.body.toString('utf8'));
        const values = form.getAll(DISCOVERY);
        if (values.length !== 1 || values[0] !== CHECKBOX_ON) return exchange;
        form.set(DISCOVERY, 'true');
        return { ...exchange, body: Buffer.from(form.toString(), 'utf8') };
      }),
  },
  {
    id: 'ho4-provisioning-scopes-flattened',
    clause: 'sso-ticket.body.nested-rules',
    level: 'observed',
    bug: 'provisioning_config.scopes passed through .flat() before it is validated, so that a scope or a list of them can be given per item: [["get:users"], "post:users"], a list holding a list, is accepted as its scopes instead of 400; a list holding a list of anything but allowed scopes is still refused.',
    install: (app) =>
      editTicketFields(app, (body) =>
        editNested(body, 'provisioning_config', (config) =>
          Array.isArray(config.scopes) && config.scopes.some((item) => Array.isArray(item))
            ? { ...config, scopes: (config.scopes as unknown[]).flat() }
            : config,
        ),
      ),
  },
  {
    id: 'ho4-token-lifetime-minimum-in-minutes',
    clause: 'sso-ticket.body.nested-rules',
    level: 'observed',
    bug: `provisioning_config.token_lifetime's minimum compared with lifetime * 60, the console's field being in minutes: a lifetime of 15 to ${LIFETIME_MIN - 1} seconds (60, say) passes "at least ${LIFETIME_MIN}" and is accepted instead of 400; one under 15 is still refused.`,
    install: (app) =>
      editTicketFields(app, (body) =>
        editNested(body, 'provisioning_config', (config) => {
          const lifetime = config.token_lifetime;
          return typeof lifetime === 'number' && Number.isInteger(lifetime) && lifetime < LIFETIME_MIN && lifetime * 60 >= LIFETIME_MIN
            ? { ...config, token_lifetime: lifetime * 60 }
            : config;
        }),
      ),
  },
]);

function isClientObject(item: unknown): item is { client_id: string } {
  return isObject(item) && typeof item.client_id === 'string';
}

function isEnabledObject(value: unknown): value is { enabled: boolean } {
  return isObject(value) && Object.keys(value).length === 1 && typeof value.enabled === 'boolean';
}
