// How the ticket request is read, at every depth, alone and with other fields: ttl_sec's maximum
// worked out across a daylight-saving change, the newest fields left to a description that did not
// type them, errors below the first level filtered out, a lifetime read with Number(), the enabled
// features' flags checked by another object's rule of the same name, null passed by typeof; and
// the observed rules: a
// provisioning scope pattern without grouping, a required
// verification mode defaulted, an empty scope list passed by every(), organizations without an id
// dropped. Each lets the near value through; plainly wrong values are refused as before.
import type { ValidateFunction } from 'ajv';
import { closedLimit, schema, type JsonObject } from '../../../../specs/index.ts';
import { editBodySchema, fieldNode } from '../../support/check-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { isObject, without } from '../round-3/support/ticket-fields.ts';
import { nestedView, viewTicketBody, wrapTicketBodyChecks } from './support/body-view.ts';

const BODY_SCHEMA = 'SsoTicketRequest';
const ttl = closedLimit('sso-ticket.body.ttl_sec.range');
const HOUR = 3600;
/** The provisioning scopes' rule as written without a group around the alternatives. */
const UNGROUPED_SCOPES = /^get|post|put|patch|delete:(users|groups)$/;
const provisioning = fieldNode(schema(BODY_SCHEMA, 'observed'), 'provisioning_config') as JsonObject & {
  properties: { scopes: { items: { enum: string[] } } };
};
const A_VALID_SCOPE = provisioning.properties.scopes.items.enum[0]!;
const DEFAULT_VERIFICATION = 'none';

/** A check that passes when its first error lies below the body's first level (a summary of top-level errors only). */
function topLevelOnly(validate: ValidateFunction): ValidateFunction {
  const check = (value: unknown): boolean => validate(value) || (validate.errors?.[0]?.instancePath.split('/').length ?? 0) > 2;
  Object.defineProperty(check, 'errors', { get: () => validate.errors });
  return check as unknown as ValidateFunction;
}

export const ticketBodyFaults = heldOutFamily([
  {
    id: 'ho6-ttl-sec-maximum-across-dst',
    clause: 'sso-ticket.body.ttl_sec.range',
    level: 'contract',
    bug: `ttl_sec's maximum computed as the seconds from now to now plus five days in the server's zone, which span a 25-hour day when a daylight-saving change falls in them: a ttl_sec from ${ttl.max + 1} to ${ttl.max + HOUR} gets a ticket instead of 400; ${ttl.max + HOUR + 1} is still refused.`,
    install: (app) =>
      viewTicketBody(app, (body) =>
        typeof body.ttl_sec === 'number' && body.ttl_sec > ttl.max && body.ttl_sec <= ttl.max + HOUR ? { ...body, ttl_sec: ttl.max } : body,
      ),
  },
  {
    id: 'ho6-organization-discovery-left-untyped',
    clause: 'sso-ticket.body.use_for_organization_discovery.type',
    level: 'contract',
    bug: 'The body checked against the description from before use_for_organization_discovery became Generally Available, where it was listed without a type: use_for_organization_discovery given as the string "yes" (or any other non-boolean) gets a ticket instead of 400; ttl_sec given as a string is still refused.',
    install: (app) =>
      viewTicketBody(app, (body) =>
        'use_for_organization_discovery' in body && typeof body.use_for_organization_discovery !== 'boolean'
          ? without(body, 'use_for_organization_discovery')
          : body,
      ),
  },
  {
    id: 'ho6-errors-below-first-level-filtered',
    clause: 'sso-ticket.body.enabled_features.sso.type',
    level: 'contract',
    bug: 'Validation errors filtered to those at the body\'s first level (an instancePath of one segment) for a short message, and the body taken as valid when none is left: enabled_features: {sso: "yes"} gets a ticket instead of 400; enabled_features: "yes" is still refused.',
    install: (app) => wrapTicketBodyChecks(app, topLevelOnly),
  },
  {
    id: 'ho6-token-lifetime-read-with-number',
    clause: 'sso-ticket.body.provisioning_config.token_lifetime.type',
    level: 'contract',
    bug: `provisioning_config.token_lifetime checked with Number.isInteger(Number(value)): the string "1200" gets a ticket instead of 400; "soon" is still refused.`,
    install: (app) =>
      viewTicketBody(app, (body) =>
        nestedView(body, 'provisioning_config', (config) =>
          typeof config.token_lifetime === 'string' && Number.isInteger(Number(config.token_lifetime))
            ? { ...config, token_lifetime: Number(config.token_lifetime) }
            : config,
        ),
      ),
  },
  {
    id: 'ho6-feature-flags-checked-by-leaf-name',
    clause: 'sso-ticket.body.enabled_features.domain_verification.type',
    level: 'contract',
    bug: 'Field rules looked up by the field\'s own name, not its path, so enabled_features.domain_verification is checked with domain_aliases_config.domain_verification\'s rule (none, optional, required): enabled_features: {domain_verification: "optional"} gets a ticket instead of 400, and enabled_features: {domain_verification: true} is refused 400 instead of getting one; enabled_features: {sso: "yes"} is still refused.',
    install: (app) =>
      editBodySchema(app, 'sso-ticket', (body) => {
        const flag = fieldNode(body, 'enabled_features.domain_verification');
        const rule = fieldNode(body, 'domain_aliases_config.domain_verification');
        for (const name of Object.keys(flag)) delete flag[name];
        Object.assign(flag, structuredClone(rule));
      }),
  },
  {
    id: 'ho6-null-aliases-config-passes-typeof',
    clause: 'sso-ticket.body.domain_aliases_config.type',
    level: 'contract',
    bug: 'domain_aliases_config checked with typeof value === "object", which is true of null, and its members read with optional chaining: domain_aliases_config: null gets a ticket instead of 400; domain_aliases_config: "none" is still refused.',
    install: (app) => viewTicketBody(app, (body) => (body.domain_aliases_config === null ? without(body, 'domain_aliases_config') : body)),
  },
  {
    id: 'ho6-provisioning-scopes-pattern-ungrouped',
    clause: 'sso-ticket.body.nested-rules',
    level: 'observed',
    bug: `provisioning_config.scopes checked with ${String(UNGROUPED_SCOPES)}, whose alternatives have no group around them, so "get" alone matches at the start: ["get:roles"] gets a ticket instead of 400; ["read:users"] is still refused.`,
    install: (app) =>
      viewTicketBody(app, (body) =>
        nestedView(body, 'provisioning_config', (config) =>
          Array.isArray(config.scopes)
            ? {
                ...config,
                scopes: (config.scopes as unknown[]).map((s) => (typeof s === 'string' && UNGROUPED_SCOPES.test(s) ? A_VALID_SCOPE : s)),
              }
            : config,
        ),
      ),
  },
  {
    id: 'ho6-domain-verification-defaulted',
    clause: 'sso-ticket.body.nested-rules',
    level: 'observed',
    bug: `A validator compiled with defaults filled in (ajv's useDefaults) from a description that gives domain_verification the default "${DEFAULT_VERIFICATION}": domain_aliases_config: {} , without its required domain_verification, gets a ticket instead of 400; domain_verification "sometimes" is still refused.`,
    install: (app) =>
      viewTicketBody(app, (body) =>
        nestedView(body, 'domain_aliases_config', (config) =>
          'domain_verification' in config ? config : { ...config, domain_verification: DEFAULT_VERIFICATION },
        ),
      ),
  },
  {
    id: 'ho6-empty-provisioning-scopes-pass-every',
    clause: 'sso-ticket.body.nested-rules',
    level: 'observed',
    bug: 'provisioning_config.scopes checked with scopes.every(isKnownScope) and no length test, every() being true of an empty list: scopes: [] gets a ticket instead of 400; ["read:users"] is still refused.',
    install: (app) =>
      viewTicketBody(app, (body) =>
        nestedView(body, 'provisioning_config', (config) =>
          Array.isArray(config.scopes) && config.scopes.length === 0 ? { ...config, scopes: [A_VALID_SCOPE] } : config,
        ),
      ),
  },
  {
    id: 'ho6-organizations-without-id-dropped',
    clause: 'sso-ticket.body.nested-rules',
    level: 'observed',
    bug: 'enabled_organizations filtered to the items that have an organization_id before they are checked (a clean-up meant for blank form rows): an item with show_as_button but no organization_id gets a ticket instead of 400; an item whose organization_id is a number is still refused.',
    install: (app) =>
      viewTicketBody(app, (body) =>
        Array.isArray(body.enabled_organizations) &&
        body.enabled_organizations.some((item) => isObject(item) && !('organization_id' in item))
          ? { ...body, enabled_organizations: body.enabled_organizations.filter((item) => !isObject(item) || 'organization_id' in item) }
          : body,
      ),
  },
]);
