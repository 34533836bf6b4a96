// The token endpoint: grant_type compared by a Sails action with JavaScript's !=, which joins an
// array into a string first; client_secret compared by a CakePHP controller with PHP's ==, where a
// non-empty string equals true; the scope claim read back by a Bun issuer with decodeURIComponent
// after an internal form-encoded hop ("+" kept); and the observed rules: exp counted from an nbf
// backdated five minutes by a Java (java-jwt) issuer, the answer's scope written by a Starlette
// endpoint from the client's grant, and a JSON body refused by an Actix-web JsonConfig whose
// content-type predicate compares whole media types. Each changes the answer to one near miss;
// other requests are answered as before.
import { SignJWT, decodeProtectedHeader, type JWTHeaderParameters } from 'jose';
import { jsonObjectOf } from '../../../auth/bearer.ts';
import { isJsonMediaType } from '../../../stages/json-body.ts';
import { capture } from '../../support/captured.ts';
import { parametersOf } from '../../support/parameter-edits.ts';
import { editReplies, editRequests } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { answeredInstead } from '../support/answers.ts';

type Fields = Record<string, unknown>;
const isObject = (value: unknown): value is Fields => value !== null && typeof value === 'object' && !Array.isArray(value);

/** The JSON body of a token request, when it is a JSON object. */
function jsonBodyOf(body: Buffer): Fields | undefined {
  try {
    const value: unknown = JSON.parse(body.toString('utf8'));
    return isObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

const GRANT_TYPE = 'client_credentials';
/** How far java-jwt's caller backdates nbf for clock skew, in seconds. */
const NBF_BACKDATE = 300;
/** actix-web's JsonPayloadError::ContentType. */
const ACTIX_CONTENT_TYPE = 'Content type error';
const MANAGEMENT_AUDIENCE_PATH = '/api/v2/';

export const tokenEndpointFaults = heldOutFamily([
  {
    id: 'ho29-grant-type-sails-loose-array',
    clause: 'token.endpoint.grant-type',
    level: 'contract',
    bug: `A Sails action that refuses with if (req.body.grant_type != '${GRANT_TYPE}'), and != turns an array into the string of its items joined with commas before comparing: a JSON request whose grant_type is ["${GRANT_TYPE}"] (a list) gets a token instead of 400; ["password"] is still refused.`,
    install: (app) =>
      editRequests(app, 'token', (exchange) => {
        if (!isJsonMediaType(exchange.headers['content-type'])) return exchange;
        const body = jsonBodyOf(exchange.body);
        if (!body || !Array.isArray(body.grant_type) || String(body.grant_type) !== GRANT_TYPE) return exchange;
        return { ...exchange, body: Buffer.from(JSON.stringify({ ...body, grant_type: GRANT_TYPE }), 'utf8') };
      }),
  },
  {
    id: 'ho29-secret-cakephp-loose-true',
    clause: 'token.endpoint.wrong-secret',
    level: 'contract',
    bug: "A CakePHP token controller that reads the JSON body with $this->request->getData() and checks if ($client->secret == $data['client_secret']), and PHP compares a non-empty string with true as true: a JSON request with the global client's id and client_secret true (a boolean) gets a token instead of being refused; client_secret false, and a wrong secret string, are still refused.",
    install: (app) => {
      const store = capture(app, 'store');
      editRequests(app, 'token', (exchange) => {
        if (!isJsonMediaType(exchange.headers['content-type'])) return exchange;
        const body = jsonBodyOf(exchange.body);
        if (!body || body.client_secret !== true || typeof body.client_id !== 'string') return exchange;
        const secret = store().client(body.client_id)?.secret;
        return secret ? { ...exchange, body: Buffer.from(JSON.stringify({ ...body, client_secret: secret }), 'utf8') } : exchange;
      });
    },
  },
  {
    id: 'ho29-scope-claim-bun-decode-uri-plus',
    clause: 'token.scopes',
    level: 'contract',
    bug: 'A Bun token service that hands the granted scopes to its signer through an internal form-encoded call (new URLSearchParams({ scope }), which writes a space as "+") and reads them back with decodeURIComponent, which leaves "+" as it is: a token of two or more scopes carries the scope claim "a+b+c", one scope by the claim\'s rule, so it may use none of the operations (403); a token narrowed to one scope, and the answer\'s scope member, are as before.',
    install: (app) =>
      app.override('issuer', (issuer, built) => ({
        async issue(client, scopes, target) {
          const issued = await issuer.issue(client, scopes, target);
          if (scopes.length < 2) return issued;
          const claims = jsonObjectOf(issued.accessToken.split('.')[1]);
          if (!claims) return issued;
          const accessToken = await new SignJWT({ ...claims, scope: scopes.join('+') })
            .setProtectedHeader(decodeProtectedHeader(issued.accessToken) as JWTHeaderParameters)
            .sign(built.keys!.privateKey);
          return { ...issued, accessToken };
        },
      })),
  },
  {
    id: 'ho29-token-exp-from-backdated-nbf',
    clause: 'token.lifetime',
    level: 'observed',
    bug: `A Java issuer on java-jwt written JWT.create().withNotBefore(now.minusSeconds(${NBF_BACKDATE})).withExpiresAt(notBefore.plusSeconds(lifetime)), the lifetime counted from the backdated nbf: every token's exp is iat + ${86400 - NBF_BACKDATE} instead of iat + 86400 (and it carries nbf = iat - ${NBF_BACKDATE}); expires_in in the answer is still 86400.`,
    install: (app) =>
      app.override('issuer', (issuer, built) => ({
        async issue(client, scopes, target) {
          const issued = await issuer.issue(client, scopes, target);
          const claims = jsonObjectOf(issued.accessToken.split('.')[1]);
          if (!claims || typeof claims.iat !== 'number') return issued;
          const nbf = claims.iat - NBF_BACKDATE;
          const accessToken = await new SignJWT({ ...claims, nbf, exp: nbf + issued.expiresIn })
            .setProtectedHeader(decodeProtectedHeader(issued.accessToken) as JWTHeaderParameters)
            .sign(built.keys!.privateKey);
          return { ...issued, accessToken };
        },
      })),
  },
  {
    id: 'ho29-token-answer-scope-from-grant',
    clause: 'token.observed.response',
    level: 'observed',
    bug: "A Starlette token endpoint whose answer is built from the client record, scope=' '.join(client.allowed_scopes), while the token's claim holds the scopes asked for: a token narrowed with the scope parameter is answered with the client's whole grant as its scope (the token itself carries only the scopes asked for); an answer to a request without a scope parameter is as before.",
    install: (app) => {
      const store = capture(app, 'store');
      editReplies(app, ['token'], (reply, exchange) => {
        const parameters = parametersOf(exchange);
        if (reply.status !== 200 || !isObject(reply.body) || typeof parameters?.scope !== 'string' || parameters.scope.trim() === '')
          return reply;
        const client = typeof parameters.client_id === 'string' ? store().client(parameters.client_id) : undefined;
        const claims = typeof reply.body.access_token === 'string' ? jsonObjectOf(reply.body.access_token.split('.')[1]) : undefined;
        if (!client || typeof claims?.aud !== 'string' || !claims.aud.endsWith(MANAGEMENT_AUDIENCE_PATH)) return reply;
        return { ...reply, body: { ...reply.body, scope: client.scopes.join(' ') } };
      });
    },
  },
  {
    id: 'ho29-token-json-actix-mime-equality',
    clause: 'token.observed.json-request',
    level: 'observed',
    bug: `An Actix-web token route whose JsonConfig has .content_type(|mime| mime == mime::APPLICATION_JSON), and two Mime values are equal only with the same parameters: a JSON token request typed "application/json; charset=utf-8" is refused 415 invalid_request "${ACTIX_CONTENT_TYPE}" instead of getting a token; "application/json" alone, and form requests with or without a charset, are answered as before.`,
    install: (app) => {
      const errors = capture(app, 'errors');
      app.wrapRoute('token', (next) => async (exchange) => {
        const type = exchange.headers['content-type'];
        const original = await next(exchange);
        if (typeof type !== 'string' || !isJsonMediaType(type) || !type.includes(';') || original.status === 429) return original;
        return answeredInstead(original, errors().tokenReply('invalid_request', ACTIX_CONTENT_TYPE, 415));
      });
    },
  },
]);
