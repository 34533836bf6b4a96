// The token endpoint, each rule kept for the common form of a token request and lost for another,
// legal one: a Spring filter registered for the spec's path alone; a FastAPI JSON model that wants
// the client's credentials in the body; a Go scope check that stops at an empty element; an
// ASP.NET Core enum read case-insensitively from JSON only; and an API Gateway mapping template
// chosen by the exact content type. Other requests are answered as before.
import { decodeJwt } from 'jose';
import { observed } from '../../../../specs/index.ts';
import type { FaultHooks } from '../../../app.ts';
import type { Exchange, Reply } from '../../../exchange.ts';
import { isFormMediaType, isJsonMediaType } from '../../../stages/json-body.ts';
import type { Client } from '../../../store.ts';
import { captureAll } from '../../support/captured.ts';
import { parametersOf, withParameters } from '../../support/parameter-edits.ts';
import { editRequests } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { answeredInstead } from '../support/answers.ts';

const GRANT_TYPE = 'client_credentials';
const UNSLASHED_PATH = observed.tokens.path;
const OK = 200;
const FORBIDDEN = 403;

type Issued = { client: Client; iss: string; aud: string };

/** The client, issuer and audience of a successful token answer. */
function issuedBy(reply: Reply, client: (id: string) => Client | undefined): Issued | undefined {
  const body = reply.body as { access_token?: unknown } | undefined;
  if (reply.status !== OK || typeof body?.access_token !== 'string') return undefined;
  const claims = decodeJwt(body.access_token);
  const found = typeof claims.azp === 'string' ? client(claims.azp) : undefined;
  return found && typeof claims.iss === 'string' && typeof claims.aud === 'string'
    ? { client: found, iss: claims.iss, aud: claims.aud }
    : undefined;
}

/** The token answer `reply` with a token for these scopes and audience in place of its own. */
function reissue(app: FaultHooks) {
  const components = captureAll(app);
  return async (reply: Reply, issued: Issued, scopes: readonly string[], audience = issued.aud): Promise<Reply> => {
    const token = await components().issuer.issue(issued.client, scopes, { issuer: issued.iss, audience });
    const body = { access_token: token.accessToken, token_type: 'Bearer', expires_in: token.expiresIn, scope: token.scope };
    return { ...reply, body };
  };
}

/** The request with one token parameter set (or left out, for undefined). */
function withParameter(exchange: Exchange, name: string, value: string | undefined): Exchange {
  const { [name]: _old, ...rest } = parametersOf(exchange) ?? {};
  return withParameters(exchange, value === undefined ? rest : { ...rest, [name]: value });
}

export const tokenEndpointFaults = heldOutFamily([
  {
    id: 'ho43-spring-grant-filter-on-slashed-path-only',
    clause: 'token.endpoint.audience',
    level: 'contract',
    bug: `A Spring Boot token endpoint whose controller is @PostMapping("/oauth/token") (Spring MVC's trailing-slash matching takes /oauth/token/ too) and whose audience-grant check is a OncePerRequestFilter with shouldNotFilter returning !request.getServletPath().equals("/oauth/token/") (the path the spec gives): a request to ${UNSLASHED_PATH} without the slash, by a client with no grant for the tenant's Reports API, asking for that API's audience, gets a token for it (200) instead of 403; the same request to /oauth/token/ is still refused, and the management audience is served on both paths.`,
    install: (app) => {
      const components = captureAll(app);
      const reissued = reissue(app);
      app.wrapRoute('token', (next) => async (exchange) => {
        const reply = await next(exchange);
        const audience = parametersOf(exchange)?.audience;
        const api = typeof audience === 'string' ? components().tenant.api(audience) : undefined;
        if (exchange.path !== UNSLASHED_PATH || reply.status !== FORBIDDEN || !api) return reply;
        const managed = await next(withParameter(exchange, 'audience', components().tenant.audience));
        const issued = issuedBy(managed, (id) => components().store.client(id));
        return issued ? reissued(managed, issued, api.scopes, api.identifier) : reply;
      });
    },
  },
  {
    id: 'ho43-fastapi-json-token-model-requires-client-id',
    clause: 'token.observed.json-request',
    level: 'observed',
    bug: 'A FastAPI token endpoint that reads form requests with Form() parameters, client_id and client_secret optional there because HTTP Basic may carry them, and JSON requests (added later for the SDKs, which all send the secret in the body) with a pydantic model whose client_id and client_secret are required: a JSON token request authenticated with HTTP Basic (client_secret_basic) is answered 400 invalid_request "Missing required parameter: client_id" instead of a token; the same JSON with the credentials in the body, and the same Basic header with a form body, get their token as before.',
    install: (app) => {
      const components = captureAll(app);
      app.wrapRoute('token', (next) => async (exchange) => {
        const reply = await next(exchange);
        const params = parametersOf(exchange);
        const basic = /^Basic /i.test(exchange.headers.authorization ?? '');
        if (!isJsonMediaType(exchange.headers['content-type']) || !basic || !params || params.client_id !== undefined) return reply;
        return answeredInstead(reply, components().errors.tokenReply('invalid_request', 'Missing required parameter: client_id'));
      });
    },
  },
  {
    id: 'ho43-go-scope-loop-breaks-on-empty-element',
    clause: 'token.observed.granted-scopes',
    level: 'observed',
    bug: 'A Go token endpoint that checks the requested scopes with for _, s := range strings.Split(scope, " ") { if s == "" { break }; if !granted[s] { return accessDenied } } (break written for continue, to skip the empty element a trailing space leaves) and then writes the token\'s scope from every non-empty element: a scope parameter with two spaces in it ("read:event_streams  read:users") gets a token carrying read:users, which the client is not granted, instead of 403; the same scopes with one space are still refused, and granted scopes are served either way.',
    install: (app) => {
      const components = captureAll(app);
      const reissued = reissue(app);
      app.wrapRoute('token', (next) => async (exchange) => {
        const scope = parametersOf(exchange)?.scope;
        const parts = typeof scope === 'string' ? scope.split(' ') : [];
        const cut = parts.indexOf('');
        const unchecked = cut < 0 ? [] : parts.slice(cut).filter((s) => s !== '');
        if (unchecked.length === 0) return next(exchange);
        const checked = parts.slice(0, cut);
        const reply = await next(withParameter(exchange, 'scope', checked.length > 0 ? checked.join(' ') : undefined));
        const issued = issuedBy(reply, (id) => components().store.client(id));
        return issued ? reissued(reply, issued, [...new Set([...checked, ...unchecked])]) : reply;
      });
    },
  },
  {
    id: 'ho43-aspnet-json-enum-grant-type-case',
    clause: 'token.endpoint.grant-type',
    level: 'contract',
    bug: `An ASP.NET Core token endpoint that binds [FromForm] requests to a string grant_type compared ordinally with "${GRANT_TYPE}", and JSON requests to a record whose GrantType is an enum read by System.Text.Json's JsonStringEnumConverter (snake_case_lower naming), which matches enum names without regard to case: a JSON request with grant_type "Client_Credentials" (or "CLIENT_CREDENTIALS") gets a token instead of 400 unsupported_grant_type; the same value form-encoded is still refused, and "password" is refused either way.`,
    install: (app) =>
      editRequests(app, 'token', (exchange) => {
        const grant = parametersOf(exchange)?.grant_type;
        if (!isJsonMediaType(exchange.headers['content-type']) || typeof grant !== 'string') return exchange;
        return grant !== GRANT_TYPE && grant.toLowerCase() === GRANT_TYPE ? withParameter(exchange, 'grant_type', GRANT_TYPE) : exchange;
      }),
  },
  {
    id: 'ho43-api-gateway-template-exact-content-type',
    clause: 'token.observed.request-rules',
    level: 'observed',
    bug: 'An AWS API Gateway REST API in front of a Python Lambda token endpoint, whose integration has a mapping template for application/x-www-form-urlencoded that refuses a repeated parameter, and passthroughBehavior WHEN_NO_MATCH: a form typed application/x-www-form-urlencoded; charset=UTF-8 (as Java and axios clients send it) matches no template and reaches the Lambda as it is, which reads it with urllib.parse.parse_qs and takes [0] of each list, so "grant_type=client_credentials&grant_type=password" gets a token instead of 400; the same form typed without the parameter is still refused.',
    install: (app) =>
      editRequests(app, 'token', (exchange) => {
        const type = exchange.headers['content-type'];
        if (!isFormMediaType(type) || !type?.includes(';')) return exchange;
        const form = new URLSearchParams(exchange.body.toString('utf8'));
        const names = [...new Set(form.keys())];
        if (names.every((name) => form.getAll(name).length === 1)) return exchange;
        const first = new URLSearchParams(names.map((name): [string, string] => [name, form.get(name)!]));
        return { ...exchange, body: Buffer.from(first.toString(), 'utf8') };
      }),
  },
]);
