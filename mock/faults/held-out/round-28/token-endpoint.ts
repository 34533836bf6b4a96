// The token endpoint: a JSON client_id bound as it came into a MySQL query by mysql2, whose comparison of a
// number with the id column casts the id to a number; grant_type bound by .NET's Enum.TryParse, which
// takes a member's number too; a narrowed scope claim written with Go's fmt.Sprint of the list
// (brackets and all); and the observed rules: an audience naming no API answered with RFC 8707's
// invalid_target by node-oidc-provider's resource indicators, the answer written by a Kotlin (Ktor)
// route with respondText (text/plain), and the audience validated by a FastAPI (Pydantic v2) model
// before the client is authenticated. Each changes the answer to one near miss; other requests are
// answered as before.
import { SignJWT, decodeProtectedHeader, type JWTHeaderParameters } from 'jose';
import { jsonObjectOf } from '../../../auth/bearer.ts';
import { isJsonMediaType } from '../../../stages/json-body.ts';
import { capture } from '../../support/captured.ts';
import { parametersOf } from '../../support/parameter-edits.ts';
import { editReplies, editRequests, withContentType } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { answeredInstead } from '../support/answers.ts';
import { editTokenParameters } from '../support/token-parameters.ts';

type Fields = Record<string, unknown>;
const isObject = (value: unknown): value is Fields => value !== null && typeof value === 'object' && !Array.isArray(value);

/** What MySQL makes of a string compared with a number: its leading numeric part, else 0. */
const mysqlNumber = (text: string): number => {
  const read = Number.parseFloat(text.trimStart());
  return Number.isNaN(read) ? 0 : read;
};
/** The .NET enum GrantType { AuthorizationCode, ClientCredentials, Password, RefreshToken }, by number. */
const GRANT_TYPE_MEMBERS = ['authorization_code', 'client_credentials', 'password', 'refresh_token'];
/** node-oidc-provider's InvalidTarget. */
const INVALID_TARGET = { error: 'invalid_target', error_description: 'resource indicator is missing, or unknown' };
const SERVICE_NOT_FOUND = 'Service not found: ';
/** Pydantic v2's message for an HttpUrl field given text that is not a URL. */
const PYDANTIC_URL_MESSAGE = 'audience: Input should be a valid URL, relative URL without a base';
const isHttpUrl = (text: string): boolean =>
  URL.canParse(text) && /^https?:$/.test(new URL(text).protocol) && new URL(text).hostname !== '';

export const tokenEndpointFaults = heldOutFamily([
  {
    id: 'ho28-client-id-mysql-numeric-cast',
    clause: 'token.endpoint.client-id',
    level: 'contract',
    bug: "A Koa token endpoint on mysql2 that binds the JSON body's client_id as it came into SELECT ... WHERE client_id = ?, and MySQL compares a number with the VARCHAR id by casting the id to a number (its leading digits, else 0): a JSON request with client_id 2 (a number) and the global client's secret gets a token (the global client's id begins \"2\") instead of being refused; client_id 3, which no id begins with, is still refused.",
    install: (app) => {
      const store = capture(app, 'store');
      editRequests(app, 'token', (exchange) => {
        if (!isJsonMediaType(exchange.headers['content-type'])) return exchange;
        let body: unknown;
        try {
          body = JSON.parse(exchange.body.toString('utf8'));
        } catch {
          return exchange;
        }
        if (!isObject(body) || typeof body.client_id !== 'number') return exchange;
        const wanted = body.client_id;
        const found = store()
          .clients()
          .find((c) => mysqlNumber(c.clientId) === wanted);
        return found ? { ...exchange, body: Buffer.from(JSON.stringify({ ...body, client_id: found.clientId }), 'utf8') } : exchange;
      });
    },
  },
  {
    id: 'ho28-grant-type-dotnet-enum-number',
    clause: 'token.endpoint.grant-type',
    level: 'contract',
    bug: 'An ASP.NET Core token endpoint that reads grant_type with Enum.TryParse<GrantType>(value.Replace("_", ""), ignoreCase: true, out var grant) over enum GrantType { AuthorizationCode, ClientCredentials, Password, RefreshToken }, and TryParse also takes a member\'s number: grant_type "1" gets a client-credentials token instead of 400; "2" (Password) is still refused unsupported_grant_type.',
    install: (app) =>
      editTokenParameters(app, (params) => {
        const type = params.grant_type;
        if (type === undefined || !/^\d+$/.test(type)) return params;
        return GRANT_TYPE_MEMBERS[Number(type)] === 'client_credentials' ? { ...params, grant_type: 'client_credentials' } : params;
      }),
  },
  {
    id: 'ho28-narrowed-scope-go-fmt-sprint',
    clause: 'token.scopes',
    level: 'contract',
    bug: 'A Go token issuer that writes the claim of a token narrowed by the scope parameter as claims["scope"] = fmt.Sprint(requested), which prints a []string in brackets: a token asked for with scope=update:event_deliveries carries the scope claim "[update:event_deliveries]", so it cannot redeliver (403 instead of 202); the answer\'s scope member and tokens asked for without a scope parameter are as before.',
    install: (app) =>
      app.override('issuer', (issuer, built) => ({
        async issue(client, scopes, target) {
          const issued = await issuer.issue(client, scopes, target);
          const narrowed = scopes !== client.scopes && ![...client.grants.values()].includes(scopes);
          const claims = narrowed ? jsonObjectOf(issued.accessToken.split('.')[1]) : undefined;
          if (!claims) return issued;
          const accessToken = await new SignJWT({ ...claims, scope: `[${scopes.join(' ')}]` })
            .setProtectedHeader(decodeProtectedHeader(issued.accessToken) as JWTHeaderParameters)
            .sign(built.keys!.privateKey);
          return { ...issued, accessToken };
        },
      })),
  },
  {
    id: 'ho28-audience-oidc-provider-invalid-target',
    clause: 'token.observed.errors',
    level: 'observed',
    bug: `A token endpoint on node-oidc-provider with its resourceIndicators feature, the audience parameter mapped onto RFC 8707's resource: an audience that names no API of the tenant is answered 400 {"error": "${INVALID_TARGET.error}", "error_description": "${INVALID_TARGET.error_description}"} instead of 403 access_denied "${SERVICE_NOT_FOUND}<audience>"; a client without a grant for an API the tenant has is still 403 access_denied.`,
    install: (app) =>
      editReplies(app, ['token'], (reply) =>
        reply.status === 403 &&
        isObject(reply.body) &&
        reply.body.error === 'access_denied' &&
        typeof reply.body.error_description === 'string' &&
        reply.body.error_description.startsWith(SERVICE_NOT_FOUND)
          ? { ...reply, status: 400, body: { ...INVALID_TARGET } }
          : reply,
      ),
  },
  {
    id: 'ho28-token-answer-ktor-respond-text',
    clause: 'token.observed.response',
    level: 'observed',
    bug: 'A Kotlin (Ktor) token route that answers with call.respondText(Json.encodeToString(answer)), whose content type defaults to ContentType.Text.Plain: every token answer is typed "text/plain; charset=UTF-8" instead of application/json; the body is the same JSON, and the errors are as before.',
    install: (app) =>
      editReplies(app, ['token'], (reply) => (reply.status === 200 ? withContentType(reply, 'text/plain; charset=UTF-8') : reply)),
  },
  {
    id: 'ho28-audience-pydantic-before-client-auth',
    clause: 'token.observed.order',
    level: 'observed',
    bug: `A FastAPI token endpoint whose request model types audience as a Pydantic v2 HttpUrl, validated (and refused, through a handler that writes OAuth's invalid_request) before the route authenticates the client: a wrong secret with an audience that is not a URL ("reports-api") is answered 400 invalid_request "${PYDANTIC_URL_MESSAGE}" instead of 401 invalid_client; a wrong secret with an audience that is a URL naming no API is still 401.`,
    install: (app) => {
      const errors = capture(app, 'errors');
      app.wrapRoute('token', (next) => async (exchange) => {
        const audience = parametersOf(exchange)?.audience;
        if (typeof audience !== 'string' || isHttpUrl(audience)) return next(exchange);
        const original = await next(exchange);
        return original.status === 200 || original.status === 429
          ? original
          : answeredInstead(original, errors().tokenReply('invalid_request', PYDANTIC_URL_MESSAGE));
      });
    },
  },
]);
