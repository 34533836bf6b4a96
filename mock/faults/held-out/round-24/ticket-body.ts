// The ticket body, at every depth: a form bound by Go's gin (an empty value is the field's zero
// value), ttl_sec's maximum checked as an expiry with the token checks' clock tolerance; and the
// observed rules: Laravel's ConvertEmptyStringsToNull turning an empty pending domain into a null its
// rule lets through, kotlinx.serialization's coerceInputValues reading an unknown domain_verification
// as the property's default, and System.Text.Json's JsonStringEnumConverter reading client_protocol
// from an integer. Each lets its near miss through; a plainly wrong value is answered as before.
import { limit, observed, schema } from '../../../../specs/index.ts';
import { isFormMediaType } from '../../../stages/json-body.ts';
import { editBodySchema, fieldNode } from '../../support/check-edits.ts';
import { editJsonBody, editRequests } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';

type Fields = Record<string, unknown>;
const isObject = (value: unknown): value is Fields => value !== null && typeof value === 'object' && !Array.isArray(value);
const BODY = schema('SsoTicketRequest', 'observed');
/** The scalar fields a form can carry and the zero value gin's form binding gives an empty one. */
const ZERO_VALUES: Record<string, string> = { ttl_sec: '0', use_for_organization_discovery: 'false' };
const TTL_SEC_MAX = limit('sso-ticket.body.ttl_sec.range').max!;
/** The clockTolerance of the service's token checks, which its expiry helper adds. */
const CLOCK_TOLERANCE_SECONDS = observed.tokens.clock_skew_seconds.value;
const DOMAIN_VERIFICATIONS = fieldNode(BODY, 'domain_aliases_config.domain_verification').enum as string[];
/** The Kotlin property's default: DomainVerification.NONE, written "none". */
const DEFAULT_DOMAIN_VERIFICATION = DOMAIN_VERIFICATIONS[0]!;
/** The C# enum's members in declaration order, as JsonStringEnumConverter numbers them. */
const CLIENT_PROTOCOLS = fieldNode(BODY, 'connection_config.options.idpinitiated.client_protocol').enum as string[];

export const ticketBodyFaults = heldOutFamily([
  {
    id: 'ho24-form-empty-value-gin-zero',
    clause: 'sso-ticket.body.ttl_sec.type',
    level: 'contract',
    bug: 'A form-encoded ticket body bound by Go\'s gin (c.ShouldBind into a struct with TTLSec int `form:"ttl_sec"`), whose form binding sets a field sent with an empty value to its zero value: ttl_sec= (no digits) is bound as 0, the default lifetime, and the ticket created instead of 400 for a value that is not an integer (use_for_organization_discovery= likewise reads false); ttl_sec=abc is still refused.',
    install: (app) =>
      editRequests(app, 'sso-ticket', (exchange) => {
        if (!isFormMediaType(exchange.headers['content-type'])) return exchange;
        const form = new URLSearchParams(exchange.body.toString('utf8'));
        let changed = false;
        for (const [name, zero] of Object.entries(ZERO_VALUES)) {
          const values = form.getAll(name);
          if (values.length === 1 && values[0] === '') {
            form.set(name, zero);
            changed = true;
          }
        }
        return changed ? { ...exchange, body: Buffer.from(form.toString(), 'utf8') } : exchange;
      }),
  },
  {
    id: 'ho24-ttl-sec-max-with-clock-tolerance',
    clause: 'sso-ticket.body.ttl_sec.range',
    level: 'contract',
    bug: `ttl_sec checked by a NestJS class-validator constraint (@IsAcceptableExpiry) built on the auth module's expiry helper, which allows the token checks' clockTolerance of ${CLOCK_TOLERANCE_SECONDS} seconds (expiresAt <= now + max + tolerance): ttl_sec ${TTL_SEC_MAX + CLOCK_TOLERANCE_SECONDS} (${CLOCK_TOLERANCE_SECONDS} seconds past the maximum) creates a ticket instead of 400; ${TTL_SEC_MAX + CLOCK_TOLERANCE_SECONDS + 1} is still refused.`,
    install: (app) =>
      editBodySchema(app, 'sso-ticket', (body) => {
        fieldNode(body, 'ttl_sec').maximum = TTL_SEC_MAX + CLOCK_TOLERANCE_SECONDS;
      }),
  },
  {
    id: 'ho24-pending-domain-empty-laravel-null',
    clause: 'sso-ticket.body.nested-rules',
    level: 'observed',
    bug: "A Laravel controller behind the framework's global ConvertEmptyStringsToNull middleware, which turns every empty string of the JSON body into null, with the rule 'domain_aliases_config.pending_domains.*' => 'nullable|string|between:1,255' (the nulls are dropped before storing): pending_domains [\"\"] creates the ticket instead of 400 for an item shorter than 1 character; an item of 256 characters is still refused.",
    install: (app) =>
      editJsonBody(app, 'sso-ticket', (body) => {
        if (!isObject(body) || !isObject(body.domain_aliases_config)) return body;
        const pending = body.domain_aliases_config.pending_domains;
        if (!Array.isArray(pending) || !pending.includes('')) return body;
        return {
          ...body,
          domain_aliases_config: { ...body.domain_aliases_config, pending_domains: pending.filter((item: unknown) => item !== '') },
        };
      }),
  },
  {
    id: 'ho24-domain-verification-kotlinx-coerced',
    clause: 'sso-ticket.body.nested-rules',
    level: 'observed',
    bug: `The body decoded with kotlinx.serialization's Json { coerceInputValues = true } (set so that a null for a non-null property takes its default), which also replaces an enum value it does not know with the property's default: domain_verification "mandatory" (or "NONE", or null) is read as "${DEFAULT_DOMAIN_VERIFICATION}" and the ticket created instead of 400; domain_verification 5, not a string, is still refused.`,
    install: (app) =>
      editJsonBody(app, 'sso-ticket', (body) => {
        if (!isObject(body) || !isObject(body.domain_aliases_config)) return body;
        const sent = body.domain_aliases_config.domain_verification;
        const unknown = sent === null || (typeof sent === 'string' && !DOMAIN_VERIFICATIONS.includes(sent));
        return unknown
          ? { ...body, domain_aliases_config: { ...body.domain_aliases_config, domain_verification: DEFAULT_DOMAIN_VERIFICATION } }
          : body;
      }),
  },
  {
    id: 'ho24-client-protocol-integer-stj-enum',
    clause: 'sso-ticket.body.nested-rules',
    level: 'observed',
    bug: `connection_config deserialised by ASP.NET Core's System.Text.Json with a JsonStringEnumConverter for ClientProtocol { ${CLIENT_PROTOCOLS.map((name) => name.charAt(0).toUpperCase() + name.slice(1)).join(', ')} }, whose allowIntegerValues is true by default: options.idpinitiated.client_protocol 1 is read as ${CLIENT_PROTOCOLS[1]} (0 and 2 as the others) and the ticket created instead of 400 for a value that is not one of the names; "saml" is still refused.`,
    install: (app) =>
      editJsonBody(app, 'sso-ticket', (body) => {
        if (!isObject(body) || !isObject(body.connection_config) || !isObject(body.connection_config.options)) return body;
        const { options } = body.connection_config;
        if (!isObject(options.idpinitiated)) return body;
        const sent = options.idpinitiated.client_protocol;
        const named = typeof sent === 'number' && Number.isInteger(sent) ? CLIENT_PROTOCOLS[sent] : undefined;
        if (named === undefined) return body;
        return {
          ...body,
          connection_config: {
            ...body.connection_config,
            options: { ...options, idpinitiated: { ...options.idpinitiated, client_protocol: named } },
          },
        };
      }),
  },
]);
