// The ticket request at every depth, alone and with other fields: ttl_sec read with parseInt in
// form bodies, a duplicated member validated as a first-wins parser reads it, an item loop that
// starts at 1, provisioning_config given as entries, a primitive body spread into an object, a
// schema generator that makes optional fields nullable, clients given as an array-like object,
// features given as a bitmask; and the observed rules (an enum checked with the `in` operator, a
// name pattern with Unicode letter classes, a required flag tested for truthiness). Each changes
// one field's rule; the others keep theirs.
import type { ErrorObject } from 'ajv';
import { schema, type JsonObject } from '../../../../specs/index.ts';
import { isFormMediaType, isJsonMediaType } from '../../../stages/json-body.ts';
import { checksOf } from '../../../validators.ts';
import { editBodySchema, fieldNode } from '../../support/check-edits.ts';
import { editJsonBody, editRequests } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { withRule } from '../round-3/support/extra-rule.ts';
import { editTicketFields, isObject } from '../round-3/support/ticket-fields.ts';
import { checkedAs } from './support/checked-as.ts';
import { parseFirstWins } from './support/first-wins-json.ts';

const BODY_SCHEMA = 'SsoTicketRequest';
/** The features of enabled_features, in the order of their bits (1, 2, 4). */
const FEATURES = Object.keys((fieldNode(schema(BODY_SCHEMA, 'contract'), 'enabled_features').properties as JsonObject) ?? {});
const ALL_FEATURE_BITS = (1 << FEATURES.length) - 1;
/** Every name the `in` operator finds on an object literal that does not hold it: Object.prototype's. */
const INHERITED_NAMES = Object.getOwnPropertyNames(Object.prototype);
/** connection_config.name's pattern written with Unicode letter and digit classes. */
const UNICODE_NAME = '^[\\p{L}\\p{N}]+(-[\\p{L}\\p{N}]+)*$';
const THIRD_PARTY = 'third_party_client_access_config';
const ALLOW = 'allow_configuration';

/** The error a hand-written `if (!config.allow_configuration)` reports, worded as the missing property. */
function missingAllowConfiguration(value: unknown): ErrorObject | undefined {
  const config = isObject(value) ? value[THIRD_PARTY] : undefined;
  if (!isObject(config) || config[ALLOW] !== false) return undefined;
  return {
    keyword: 'required',
    instancePath: `/${THIRD_PARTY}`,
    schemaPath: `#/properties/${THIRD_PARTY}/required`,
    params: { missingProperty: ALLOW },
    message: `must have required property '${ALLOW}'`,
  };
}

/** The body as a loop from index 1 sees it: enabled_organizations without its first item. */
function withoutFirstOrganization(value: unknown): unknown {
  return isObject(value) && Array.isArray(value.enabled_organizations)
    ? { ...value, enabled_organizations: value.enabled_organizations.slice(1) }
    : value;
}

/** A value with a numeric length that is neither an array nor a string (lodash's isArrayLikeObject). */
function isArrayLikeObject(value: unknown): value is ArrayLike<unknown> {
  return isObject(value) && Number.isSafeInteger(value.length) && (value.length as number) >= 0;
}

export const ticketBodyFaults = heldOutFamily([
  {
    id: 'ho5-form-ttl-sec-parsed-with-parseint',
    clause: 'sso-ticket.body.ttl_sec.type',
    level: 'contract',
    bug: 'Form-encoded ticket bodies convert ttl_sec with parseInt(value, 10), which reads the leading digits and drops the rest: ttl_sec=3600.5, a number with a fraction, is taken for 3600 and the ticket created instead of 400 (and "3600s" likewise); a value that does not start with a digit is still refused, and so is 3600.5 in JSON.',
    install: (app) =>
      editRequests(app, 'sso-ticket', (exchange) => {
        if (!isFormMediaType(exchange.headers['content-type'])) return exchange;
        const form = new URLSearchParams(exchange.body.toString('utf8'));
        const values = form.getAll('ttl_sec');
        const parsed = values.length === 1 ? Number.parseInt(values[0]!, 10) : Number.NaN;
        if (Number.isNaN(parsed) || String(parsed) === values[0]) return exchange;
        form.set('ttl_sec', String(parsed));
        return { ...exchange, body: Buffer.from(form.toString(), 'utf8') };
      }),
  },
  {
    id: 'ho5-duplicate-members-validated-first-wins',
    clause: 'sso-ticket.body.ttl_sec.range',
    level: 'contract',
    bug: 'JSON ticket bodies validated by a gateway whose parser keeps the first of a member given twice, and acted on by the service, whose JSON.parse keeps the last: {"ttl_sec": 3600, "ttl_sec": 999999} passes validation and creates a ticket instead of 400 for the 999999 the service reads; with the out-of-range value first it is refused, though the service would read the valid last one.',
    install: (app) =>
      editRequests(app, 'sso-ticket', (exchange) => {
        if (!isJsonMediaType(exchange.headers['content-type'])) return exchange;
        const text = exchange.body.toString('utf8');
        const first = parseFirstWins(text);
        let last: unknown;
        try {
          last = JSON.parse(text);
        } catch {
          return exchange;
        }
        if (first === undefined || JSON.stringify(first) === JSON.stringify(last)) return exchange;
        return { ...exchange, body: Buffer.from(JSON.stringify(first), 'utf8') };
      }),
  },
  {
    id: 'ho5-first-organization-unchecked',
    clause: 'sso-ticket.body.enabled_organizations.organization_id.type',
    level: 'contract',
    bug: 'enabled_organizations checked item by item in a loop written "for (let i = 1; i < list.length; i++)": the first item is never checked, so [{"organization_id": 123}] creates a ticket instead of 400; the same item in second place is still refused.',
    install: (app) =>
      app.override('validators', (validators) => {
        const checks = checksOf(validators, 'sso-ticket');
        if (checks.body) checks.body = checkedAs(checks.body, withoutFirstOrganization);
        if (checks.formBody) checks.formBody = checkedAs(checks.formBody, withoutFirstOrganization);
        return validators;
      }),
  },
  {
    id: 'ho5-provisioning-config-entries-accepted',
    clause: 'sso-ticket.body.provisioning_config.type',
    level: 'contract',
    bug: 'provisioning_config read with a helper that also takes a Map serialised as its entries (Object.fromEntries when given an array of pairs): [["scopes", ["get:users"]]], an array and not an object, is accepted as {"scopes": ["get:users"]} instead of 400; an array that is not of pairs is still refused.',
    install: (app) =>
      editTicketFields(app, (body) => {
        const config = body.provisioning_config;
        const pairs =
          Array.isArray(config) &&
          config.length > 0 &&
          config.every((entry) => Array.isArray(entry) && entry.length === 2 && typeof entry[0] === 'string');
        return pairs ? { ...body, provisioning_config: Object.fromEntries(config as Array<[string, unknown]>) } : body;
      }),
  },
  {
    id: 'ho5-primitive-body-spread',
    clause: 'sso-ticket.body.object',
    level: 'contract',
    bug: 'The body copied with { ...body } after a check for null and arrays only: a JSON number or boolean, which spreads to {}, creates a ticket instead of 400; a string (which spreads to its characters) is still refused, and null and arrays too.',
    install: (app) => editJsonBody(app, 'sso-ticket', (value) => (typeof value === 'number' || typeof value === 'boolean' ? {} : value)),
  },
  {
    id: 'ho5-optional-boolean-nullable',
    clause: 'sso-ticket.body.use_for_organization_discovery.type',
    level: 'contract',
    bug: 'The body schema generated by a converter that marks every optional boolean "nullable": use_for_organization_discovery null is accepted and the ticket created instead of 400; a string or a number there is still refused.',
    install: (app) =>
      editBodySchema(app, 'sso-ticket', (body) => {
        fieldNode(body, 'use_for_organization_discovery').type = ['boolean', 'null'];
      }),
  },
  {
    id: 'ho5-enabled-clients-array-like',
    clause: 'sso-ticket.body.enabled_clients.type',
    level: 'contract',
    bug: 'enabled_clients read with Array.from() whenever it is array-like (an object with a numeric length, as lodash\'s isArrayLikeObject says), for callers that pass arguments objects: {"length": 1, "0": "<client_id>"}, an object and not an array, is accepted as the list of that id instead of 400; an object without length is still refused.',
    install: (app) =>
      editTicketFields(app, (body) =>
        isArrayLikeObject(body.enabled_clients) ? { ...body, enabled_clients: Array.from(body.enabled_clients) } : body,
      ),
  },
  {
    id: 'ho5-enabled-features-bitmask',
    clause: 'sso-ticket.body.enabled_features.type',
    level: 'contract',
    bug: `enabled_features also read as the bitmask the tenant-settings store keeps (${FEATURES.map((name, bit) => `${1 << bit} ${name}`).join(', ')}): a number from 1 to ${ALL_FEATURE_BITS}, not an object, is accepted as those flags instead of 400; a string, or a number with other bits, is still refused.`,
    install: (app) =>
      editTicketFields(app, (body) => {
        const mask = body.enabled_features;
        if (typeof mask !== 'number' || !Number.isInteger(mask) || mask < 1 || mask > ALL_FEATURE_BITS) return body;
        return { ...body, enabled_features: Object.fromEntries(FEATURES.map((name, bit) => [name, (mask & (1 << bit)) !== 0])) };
      }),
  },
  {
    id: 'ho5-domain-verification-checked-with-in',
    clause: 'sso-ticket.body.nested-rules',
    level: 'observed',
    bug: 'domain_aliases_config.domain_verification checked with "value in { none: 1, optional: 1, required: 1 }", and the in operator also finds what an object inherits: "constructor" (or "toString") is accepted as a verification mode instead of 400; "maybe" is still refused.',
    install: (app) =>
      editBodySchema(app, 'sso-ticket', (body) => {
        const node = fieldNode(body, 'domain_aliases_config.domain_verification');
        node.enum = [...(node.enum as string[]), ...INHERITED_NAMES];
      }),
  },
  {
    id: 'ho5-connection-name-unicode-letters',
    clause: 'sso-ticket.body.nested-rules',
    level: 'observed',
    bug: `connection_config.name's pattern written with Unicode classes (${UNICODE_NAME}) where ASCII letters and digits were meant: "zürich-sso" is accepted instead of 400; an underscore or a doubled hyphen is still refused.`,
    install: (app) =>
      editBodySchema(app, 'sso-ticket', (body) => {
        fieldNode(body, 'connection_config.name').pattern = UNICODE_NAME;
      }),
  },
  {
    id: 'ho5-allow-configuration-false-as-missing',
    clause: 'sso-ticket.body.nested-rules',
    level: 'observed',
    bug: `${THIRD_PARTY}.${ALLOW}'s requirement tested with "if (!config.${ALLOW})", truthiness where presence was meant: {"${ALLOW}": false}, which the description allows, is refused with 400 "Missing required property"; true is accepted.`,
    install: (app) =>
      app.override('validators', (validators) => {
        const checks = checksOf(validators, 'sso-ticket');
        if (checks.body) checks.body = withRule(checks.body, missingAllowConfiguration);
        if (checks.formBody) checks.formBody = withRule(checks.formBody, missingAllowConfiguration);
        return validators;
      }),
  },
]);
