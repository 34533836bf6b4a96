// The ticket body, where two members meet: enabled_features checked only for edit tickets; an
// edit branch that never decodes connection_config; a union whose create branch types
// enabled_clients loosely; ttl_sec's maximum in one validation group; the discovery flag parsed
// beside a domain configuration; and the observed rule: domain_verification not required beside an
// empty pending_domains. Other values are judged as before.
import { editJsonBody } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => value !== null && typeof value === 'object' && !Array.isArray(value);
const TTL_MAX = 432_000;

export const ticketBodyFaults = heldOutFamily([
  {
    id: 'ho40-enabled-features-checked-only-for-edit',
    clause: 'sso-ticket.body.enabled_features.type',
    level: 'contract',
    bug: 'An Express ticket handler that validates enabled_features inside if (body.connection_id) { ... } (the feature flags "apply only when connection_id is given", so the check was put where they apply) and otherwise drops the member: enabled_features "all" (or true, or a list) without connection_id creates the ticket (201) instead of 400; the same value beside connection_id is still refused 400, and an enabled_features object is accepted either way.',
    install: (app) =>
      editJsonBody(app, 'sso-ticket', (body) => {
        if (!isObject(body) || body.connection_id !== undefined || body.enabled_features === undefined || isObject(body.enabled_features))
          return body;
        const { enabled_features: _dropped, ...rest } = body;
        return rest;
      }),
  },
  {
    id: 'ho40-connection-config-unread-on-edit',
    clause: 'sso-ticket.body.connection_config.type',
    level: 'contract',
    bug: 'A Go ticket handler that decodes the body with connection_config as json.RawMessage and, on the edit branch (connection_id given), reads only gjson.GetBytes(raw, "name") for the taken-name check, never unmarshalling it into ConnectionConfig as the create branch does: a connection_config "acme" (a string) beside connection_id creates the ticket (201) instead of 400; the same connection_config alone is still refused 400, and an object with a taken name is still refused 409 on either branch.',
    install: (app) =>
      editJsonBody(app, 'sso-ticket', (body) => {
        if (
          !isObject(body) ||
          typeof body.connection_id !== 'string' ||
          body.connection_config === undefined ||
          isObject(body.connection_config)
        )
          return body;
        const { connection_config: _unread, ...rest } = body;
        return rest;
      }),
  },
  {
    id: 'ho40-enabled-clients-loose-in-create-branch',
    clause: 'sso-ticket.body.enabled_clients.type',
    level: 'contract',
    bug: 'A TypeScript ticket schema written as z.union([editTicket, createTicket]) where createTicket (connection_config required) was written later with enabled_clients: z.array(z.coerce.string()) (client ids once came from a numeric column): enabled_clients [42] beside a connection_config creates the ticket (201) instead of 400; [42] without connection_config is still refused 400, and enabled_clients "web" (not a list) beside a connection_config is still refused.',
    install: (app) =>
      editJsonBody(app, 'sso-ticket', (body) => {
        if (!isObject(body) || !isObject(body.connection_config) || !Array.isArray(body.enabled_clients)) return body;
        const clients = body.enabled_clients as unknown[];
        if (clients.every((c) => typeof c === 'string')) return body;
        return { ...body, enabled_clients: clients.map((c) => (typeof c === 'number' || typeof c === 'boolean' ? String(c) : c)) };
      }),
  },
  {
    id: 'ho40-ttl-maximum-only-in-create-group',
    clause: 'sso-ticket.body.ttl_sec.range',
    level: 'contract',
    bug: `A Spring ticket controller whose request DTO puts @Max(${TTL_MAX}) on ttl_sec in the Create validation group only and @PositiveOrZero in Default, the controller validating @Validated(Edit.class) when connection_id is given: ttl_sec ${TTL_MAX + 1} beside connection_id creates the ticket (201) instead of 400; the same ttl_sec alone is still refused 400, and ttl_sec -1 beside connection_id is still refused.`,
    install: (app) =>
      editJsonBody(app, 'sso-ticket', (body) => {
        if (!isObject(body) || typeof body.connection_id !== 'string') return body;
        const ttl = body.ttl_sec;
        return typeof ttl === 'number' && Number.isInteger(ttl) && ttl > TTL_MAX ? { ...body, ttl_sec: TTL_MAX } : body;
      }),
  },
  {
    id: 'ho40-discovery-flag-parsed-beside-domain-config',
    clause: 'sso-ticket.body.use_for_organization_discovery.type',
    level: 'contract',
    bug: 'A Pydantic v2 ticket model with a model_validator(mode="before") that, when domain_aliases_config is given (discovery only matters for domains), normalises use_for_organization_discovery with v.lower() == "true" when it is a str: use_for_organization_discovery "true" (or "False") beside a domain_aliases_config creates the ticket (201) instead of 400; the same string alone is still refused 400, and 1 beside a domain_aliases_config is still refused.',
    install: (app) =>
      editJsonBody(app, 'sso-ticket', (body) => {
        if (!isObject(body) || !isObject(body.domain_aliases_config)) return body;
        const flag = body.use_for_organization_discovery;
        return typeof flag === 'string' ? { ...body, use_for_organization_discovery: flag.toLowerCase() === 'true' } : body;
      }),
  },
  {
    id: 'ho40-domain-verification-unrequired-beside-empty-pending',
    clause: 'sso-ticket.body.nested-rules',
    level: 'observed',
    bug: 'A Pydantic DomainAliasesConfig whose model_validator starts with if "pending_domains" in data and not data["pending_domains"]: return data ("nothing pending, nothing to verify") before the check that domain_verification is present: a domain_aliases_config of pending_domains [] without domain_verification creates the ticket (201) instead of 400; {} and pending_domains ["login.example.com"] without domain_verification are still refused 400.',
    install: (app) =>
      editJsonBody(app, 'sso-ticket', (body) => {
        if (!isObject(body) || !isObject(body.domain_aliases_config)) return body;
        const config = body.domain_aliases_config;
        if (config.domain_verification !== undefined || !Array.isArray(config.pending_domains) || config.pending_domains.length > 0)
          return body;
        return { ...body, domain_aliases_config: { ...config, domain_verification: 'none' } };
      }),
  },
]);
