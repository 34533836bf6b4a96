// The ticket body and headers, each a rule that holds for the common form of the request and is
// skipped for another, legal one: a Go service whose OpenAPI middleware lets a body it cannot decode
// (a UTF-8 BOM) through to the handler; a Kong pre-function that finds a member by a pattern that
// a pretty-printer's " : " defeats; an Express route for form bodies that never checks the headers;
// and a pydantic before-validator that turns enabled_clients into a list when organizations are
// given. Other requests are judged as before.
import { isFormMediaType, isJsonMediaType } from '../../../stages/json-body.ts';
import type { Reply } from '../../../exchange.ts';
import { editJsonBody, editRequests } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => value !== null && typeof value === 'object' && !Array.isArray(value);

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
const TTL_MAX = 432000;
const LIFETIME_MIN = 900;
const CUSTOM_DOMAIN = 'tenant-custom-domain';
const DOMAIN_MIN = 3;
const DOMAIN_MAX = 255;
/** What the Kong pre-function's pattern finds: the member's name, then the colon with nothing between. */
const KONG_PATTERN = /"token_lifetime":/;
const ANY_SPACING = /"token_lifetime"\s*:/;

/** The JSON object of a body, or undefined. */
function objectOf(text: string): Json | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return isObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** A created ticket's URL moved to `host`, as the form handler builds it from the header. */
function onHost(reply: Reply, host: string): Reply {
  if (reply.status !== 201 || !isObject(reply.body) || typeof reply.body.ticket !== 'string') return reply;
  return { ...reply, body: { ...reply.body, ticket: reply.body.ticket.replace(/^https:\/\/[^/]+/, `https://${host}`) } };
}

export const ticketBodyFaults = heldOutFamily([
  {
    id: 'ho43-kin-openapi-bom-body-passed-unvalidated',
    clause: 'sso-ticket.body.ttl_sec.range',
    level: 'contract',
    bug: `A Go ticket service whose request validation is kin-openapi's openapi3filter middleware, set to pass a request on when it cannot decode the body (the handler writes its own malformed-JSON error), and whose handler strips a UTF-8 byte order mark (bytes.TrimPrefix) before json.Unmarshal into a struct with TTLSec *int: a body that starts with a BOM is never schema-checked, so ttl_sec 500000 (or -1) creates a ticket instead of 400; the same body without the BOM is refused by the middleware, and with the BOM a ttl_sec "3600" or 3600.5 is still refused by Go's types.`,
    install: (app) =>
      editRequests(app, 'sso-ticket', (exchange) => {
        if (!isJsonMediaType(exchange.headers['content-type']) || !exchange.body.subarray(0, BOM.length).equals(BOM)) return exchange;
        const body = objectOf(exchange.body.subarray(BOM.length).toString('utf8'));
        const ttl = body?.ttl_sec;
        if (!body || typeof ttl !== 'number' || !Number.isInteger(ttl) || (ttl >= 0 && ttl <= TTL_MAX)) return exchange;
        const { ttl_sec: _unchecked, ...rest } = body;
        return { ...exchange, body: Buffer.from(JSON.stringify(rest), 'utf8') };
      }),
  },
  {
    id: 'ho43-kong-pattern-misses-pretty-printed-member',
    clause: 'sso-ticket.body.nested-rules',
    level: 'observed',
    bug: `A Kong pre-function (Lua) that enforces the provisioning token's minimum lifetime with ngx.re.match(body, [["token_lifetime":(-?\\d+)]]) before a service written to leave that limit to the gateway: a body pretty-printed by Jackson's DefaultPrettyPrinter, which writes "token_lifetime" : 600 with a space before the colon, is not matched, and provisioning_config.token_lifetime 600 creates a ticket instead of 400; "token_lifetime":600 written compactly is still refused, and 900 or null is served either way.`,
    install: (app) =>
      editRequests(app, 'sso-ticket', (exchange) => {
        const text = exchange.body.toString('utf8');
        if (!isJsonMediaType(exchange.headers['content-type']) || KONG_PATTERN.test(text) || !ANY_SPACING.test(text)) return exchange;
        const body = objectOf(text);
        const config = body?.provisioning_config;
        const lifetime = isObject(config) ? config.token_lifetime : undefined;
        if (!body || !isObject(config) || typeof lifetime !== 'number' || !Number.isInteger(lifetime) || lifetime >= LIFETIME_MIN)
          return exchange;
        const edited = { ...body, provisioning_config: { ...config, token_lifetime: LIFETIME_MIN } };
        return { ...exchange, body: Buffer.from(JSON.stringify(edited), 'utf8') };
      }),
  },
  {
    id: 'ho43-express-form-route-skips-header-schema',
    clause: 'sso-ticket.header.custom-domain.length',
    level: 'contract',
    bug: `An Express ticket route split in two, router.post(path, express.urlencoded(), ticketFromForm) ahead of router.post(path, celebrate({ [Segments.HEADERS]: ..., [Segments.BODY]: ... }), ticketFromJson), the form handler (written for the legacy console, calling next("route") for other bodies) validating its fields with its own Joi schema and never the headers: a form-encoded ticket request whose ${CUSTOM_DOMAIN} has 2 characters (or 256) creates a ticket on that host instead of 400; the same header beside a JSON body is still refused, and a header of good length is served either way.`,
    install: (app) =>
      app.wrapRoute('sso-ticket', (next) => async (exchange) => {
        const sent = exchange.headers[CUSTOM_DOMAIN];
        const domain = Array.isArray(sent) ? sent.join(', ') : sent;
        if (!isFormMediaType(exchange.headers['content-type']) || domain === undefined) return next(exchange);
        if (domain.length >= DOMAIN_MIN && domain.length <= DOMAIN_MAX) return next(exchange);
        const { [CUSTOM_DOMAIN]: _unchecked, ...headers } = exchange.headers;
        const reply = await next({ ...exchange, headers });
        return onHost(reply, domain.toLowerCase());
      }),
  },
  {
    id: 'ho43-pydantic-before-validator-listifies-clients',
    clause: 'sso-ticket.body.enabled_clients.type',
    level: 'contract',
    bug: 'A FastAPI ticket model whose @model_validator(mode="before") fills enabled_clients when organizations are given, clients = data.get("enabled_clients") or []; if isinstance(clients, (str, tuple)): clients = list(clients) (meant for a tuple), and list() of a string is its characters: enabled_clients "abc" (a string) beside a non-empty enabled_organizations creates a ticket instead of 400; the same string without enabled_organizations is still refused, and so is enabled_clients 42 beside them.',
    install: (app) =>
      editJsonBody(app, 'sso-ticket', (body) =>
        isObject(body) &&
        Array.isArray(body.enabled_organizations) &&
        body.enabled_organizations.length > 0 &&
        typeof body.enabled_clients === 'string'
          ? { ...body, enabled_clients: [...body.enabled_clients] }
          : body,
      ),
  },
]);
