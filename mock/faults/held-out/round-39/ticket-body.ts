// The ticket body, where two members meet: an organization item's checks written as one else-if
// chain; enabled_features.provisioning set from provisioning_config before the checks; a gateway
// model keyed by the exact content type; and the observed rules: the pending domains' rules under a
// JSON Schema if/then, token_lifetime's minimum under dependentSchemas. Other values are judged as
// before.
import { isJsonMediaType } from '../../../stages/json-body.ts';
import { editJsonBody, editRequests } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => value !== null && typeof value === 'object' && !Array.isArray(value);
const PENDING_DOMAIN_MAX = 255;
const LIFETIME_MIN = 900;
/** A pending domain the rules take, standing in for one they would refuse. */
const STAND_IN_DOMAIN = 'login.partner.example';

export const ticketBodyFaults = heldOutFamily([
  {
    id: 'ho39-show-as-button-else-if-assign',
    clause: 'sso-ticket.body.enabled_organizations.show_as_button.type',
    level: 'contract',
    bug: 'A Go ticket handler that checks each organization item\'s flags with if item.AssignMembershipOnLogin != nil { check it } else if item.ShowAsButton != nil { check it } (an else-if chain written for "one of the two flags"), both held as json.RawMessage: an item with assign_membership_on_login true and show_as_button "yes" creates the ticket instead of 400; show_as_button "yes" alone, and assign_membership_on_login "yes" beside show_as_button true, are still refused.',
    install: (app) =>
      editJsonBody(app, 'sso-ticket', (body) => {
        if (!isObject(body) || !Array.isArray(body.enabled_organizations)) return body;
        let changed = false;
        const items = body.enabled_organizations.map((item: unknown) => {
          if (!isObject(item) || item.assign_membership_on_login === undefined || item.show_as_button === undefined) return item;
          if (typeof item.show_as_button === 'boolean') return item;
          changed = true;
          return { ...item, show_as_button: Boolean(item.show_as_button) };
        });
        return changed ? { ...body, enabled_organizations: items } : body;
      }),
  },
  {
    id: 'ho39-provisioning-flag-set-from-config',
    clause: 'sso-ticket.body.enabled_features.provisioning.type',
    level: 'contract',
    bug: 'A Django REST Framework serializer whose to_internal_value sets data["enabled_features"]["provisioning"] = True when provisioning_config is given ("a provisioning configuration implies the feature"), before the nested serializer validates: enabled_features.provisioning "yes" beside a provisioning_config creates the ticket instead of 400; provisioning "yes" without provisioning_config is still refused, and so is enabled_features.sso "yes" beside a provisioning_config.',
    install: (app) =>
      editJsonBody(app, 'sso-ticket', (body) => {
        if (!isObject(body) || !isObject(body.provisioning_config) || !isObject(body.enabled_features)) return body;
        if (body.enabled_features.provisioning === undefined || body.enabled_features.provisioning === true) return body;
        return { ...body, enabled_features: { ...body.enabled_features, provisioning: true } };
      }),
  },
  {
    id: 'ho39-ttl-sec-gateway-model-exact-content-type',
    clause: 'sso-ticket.body.ttl_sec.type',
    level: 'contract',
    bug: 'An AWS API Gateway (REST) request validator whose body model is mapped to the content type "application/json" exactly, in front of a Python Lambda that reads ttl_sec with int(body.get("ttl_sec", 0)) and checks only the range: a body typed "application/json; charset=utf-8" matches no model and is not validated, so ttl_sec "3600" (a string) creates the ticket instead of 400; the same body typed application/json is still refused, and ttl_sec "soon" (int() fails) still gets 400.',
    install: (app) =>
      editRequests(app, 'sso-ticket', (exchange) => {
        const type = exchange.headers['content-type'] ?? '';
        if (!isJsonMediaType(type) || !type.includes(';')) return exchange;
        let body: unknown;
        try {
          body = JSON.parse(exchange.body.toString('utf8'));
        } catch {
          return exchange;
        }
        if (!isObject(body) || typeof body.ttl_sec !== 'string' || !/^\s*[+-]?\d+\s*$/.test(body.ttl_sec)) return exchange;
        return { ...exchange, body: Buffer.from(JSON.stringify({ ...body, ttl_sec: Number.parseInt(body.ttl_sec, 10) }), 'utf8') };
      }),
  },
  {
    id: 'ho39-pending-domains-rules-under-if-then',
    clause: 'sso-ticket.body.nested-rules',
    level: 'observed',
    bug: `A JSON Schema for domain_aliases_config written with if: {properties: {domain_verification: {not: {const: "none"}}}} then: {properties: {pending_domains: {items: {minLength: 1, maxLength: ${PENDING_DOMAIN_MAX}}}}} (the author thinking pending domains matter only when they are verified), the items typed string outside the then: with domain_verification "none", a pending domain "" (or one of ${PENDING_DOMAIN_MAX + 1} characters) creates the ticket instead of 400; with "optional" it is still refused, and a pending domain 5 is refused beside "none".`,
    install: (app) =>
      editJsonBody(app, 'sso-ticket', (body) => {
        if (!isObject(body) || !isObject(body.domain_aliases_config)) return body;
        const config = body.domain_aliases_config;
        if (config.domain_verification !== 'none' || !Array.isArray(config.pending_domains)) return body;
        const bad = (d: unknown) => typeof d === 'string' && (d.length < 1 || d.length > PENDING_DOMAIN_MAX);
        if (!config.pending_domains.some(bad)) return body;
        const pending = config.pending_domains.map((d: unknown) => (bad(d) ? STAND_IN_DOMAIN : d));
        return { ...body, domain_aliases_config: { ...config, pending_domains: pending } };
      }),
  },
  {
    id: 'ho39-token-lifetime-minimum-under-dependent-schemas',
    clause: 'sso-ticket.body.nested-rules',
    level: 'observed',
    bug: `A JSON Schema for provisioning_config whose token_lifetime minimum sits under dependentSchemas: {scopes: {properties: {token_lifetime: {minimum: ${LIFETIME_MIN}}}}} (moved there when someone read "provisioning tokens" as needing scopes), the type rule left at the top: a provisioning_config without scopes and with token_lifetime ${LIFETIME_MIN - 1} (or 60) creates the ticket instead of 400; the same lifetime beside scopes ["get:users"] is still refused, and token_lifetime "900" without scopes still gets 400.`,
    install: (app) =>
      editJsonBody(app, 'sso-ticket', (body) => {
        if (!isObject(body) || !isObject(body.provisioning_config)) return body;
        const config = body.provisioning_config;
        const lifetime = config.token_lifetime;
        if (config.scopes !== undefined || typeof lifetime !== 'number' || !Number.isInteger(lifetime) || lifetime >= LIFETIME_MIN)
          return body;
        return { ...body, provisioning_config: { ...config, token_lifetime: LIFETIME_MIN } };
      }),
  },
]);
