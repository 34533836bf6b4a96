// The token endpoint: the scopes of a narrowed token kept in a Set that JSON serialises as {}, an
// empty secret matched as the "previous secret" of a client never rotated, and a form parser
// hardened with a cap of four parameters; and the observed rules: the lifetime's setting read
// under a misspelled key, so the library's default applies, errors serialised by an older error
// class, the scopes asked for checked with some() for every(), and a form parser mounted for every content type ahead of the JSON one. Each changes the answer to one near miss; a
// plainly wrong request is answered as before.
import { SignJWT, decodeJwt, decodeProtectedHeader, type JWTHeaderParameters } from 'jose';
import { observed } from '../../../../specs/index.ts';
import { jsonReply, type Reply } from '../../../exchange.ts';
import { FORM_MEDIA_TYPE, isFormMediaType, isJsonMediaType } from '../../../stages/json-body.ts';
import { capture } from '../../support/captured.ts';
import { editReplies, editRequests } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { editTokenParameters } from '../support/token-parameters.ts';
import { tokenRequestOf } from '../round-10/support/token-request-view.ts';
import type { SigningKeys } from '../../../auth/keys.ts';

/** The hardening cap of the form parser (querystring.parse's maxKeys), parameters past it dropped. */
const MAX_KEYS = 4;
/** The library's default lifetime, which applies when the tenant's setting is read under a misspelled key. */
const LIBRARY_DEFAULT_LIFETIME = 36_000;
const LIFETIME = observed.tokens.expires_in;

type Fields = Record<string, unknown>;

/** The token answer with its access token's claims edited (re-signed with the tenant's key), and its fields. */
async function reissued(
  reply: Reply,
  keys: SigningKeys,
  claims: (claims: Fields) => Fields,
  fields: (body: Fields) => Fields,
): Promise<Reply> {
  const body = reply.body as Fields | undefined;
  if (reply.status !== 200 || typeof body?.access_token !== 'string') return reply;
  const token = body.access_token;
  const accessToken = await new SignJWT(claims(decodeJwt(token)))
    .setProtectedHeader(decodeProtectedHeader(token) as JWTHeaderParameters)
    .sign(keys.privateKey);
  return { ...reply, body: fields({ ...body, access_token: accessToken }) };
}

export const tokenEndpointFaults = heldOutFamily([
  {
    id: 'ho11-token-narrowed-scopes-set-serialised',
    clause: 'token.scopes',
    level: 'contract',
    bug: 'The scopes a request narrows its grant to de-duplicated with new Set(requested) and put in the token\'s claims as the Set itself (the spread into a list forgotten), which JSON serialises as {}: a token asked for with scope=update:event_deliveries carries "scope": {} and no scope at all, and is refused 401 by redelivery instead of being let redeliver; a token asked for without a scope carries its grant as before.',
    install: (app) => {
      const keys = capture(app, 'keys');
      editReplies(app, ['token'], (reply, exchange) =>
        (tokenRequestOf(exchange).scope ?? '').trim() === ''
          ? reply
          : reissued(
              reply,
              keys(),
              (claims) => ({ ...claims, scope: {} }),
              (body) => body,
            ),
      );
    },
  },
  {
    id: 'ho11-token-empty-previous-secret',
    clause: 'token.endpoint.wrong-secret',
    level: 'contract',
    bug: 'Secret rotation\'s grace period, which also accepts the client\'s previous secret, reading it as client.previousSecret ?? "" for a client never rotated: a request with an empty client_secret matches that "" and gets a token instead of being refused; a wrong non-empty secret is still refused 401.',
    install: (app) => {
      const store = capture(app, 'store');
      editTokenParameters(app, (params) => {
        const secret = params.client_id === undefined ? undefined : store().client(params.client_id)?.secret;
        return params.client_secret === '' && secret !== undefined ? { ...params, client_secret: secret } : params;
      });
    },
  },
  {
    id: 'ho11-token-form-max-keys',
    clause: 'token.endpoint',
    level: 'contract',
    bug: `The form body parsed with querystring.parse(text, "&", "=", { maxKeys: ${MAX_KEYS} }), a cap set to harden the parser (the client-credentials grant needing four parameters), which drops the parameters past it: a valid request of five parameters (scope first, audience last) is refused 400 for a missing audience instead of getting a token; the same request without scope gets one as before.`,
    install: (app) =>
      editRequests(app, 'token', (exchange) => {
        if (!isFormMediaType(exchange.headers['content-type'])) return exchange;
        const pairs = exchange.body
          .toString('utf8')
          .split('&')
          .filter((pair) => pair.length > 0);
        return pairs.length <= MAX_KEYS ? exchange : { ...exchange, body: Buffer.from(pairs.slice(0, MAX_KEYS).join('&'), 'utf8') };
      }),
  },
  {
    id: 'ho11-token-lifetime-setting-misspelled',
    clause: 'token.lifetime',
    level: 'observed',
    bug: `The tenant's token lifetime read as config.tokenLifeTime ?? ${LIBRARY_DEFAULT_LIFETIME} where the setting is spelled tokenLifetime, so the OAuth library's default applies: tokens come with expires_in ${LIBRARY_DEFAULT_LIFETIME} and exp = iat + ${LIBRARY_DEFAULT_LIFETIME} instead of ${LIFETIME}; the rest of the answer and of the claims is as before.`,
    install: (app) => {
      const keys = capture(app, 'keys');
      editReplies(app, ['token'], (reply) =>
        reissued(
          reply,
          keys(),
          (claims) => (typeof claims.iat === 'number' ? { ...claims, exp: claims.iat + LIBRARY_DEFAULT_LIFETIME } : claims),
          (body) => ({ ...body, expires_in: LIBRARY_DEFAULT_LIFETIME }),
        ),
      );
    },
  },
  {
    id: 'ho11-token-error-description-old-key',
    clause: 'token.observed.errors',
    level: 'observed',
    bug: 'Token endpoint errors serialised by the OAuth library\'s older error class, which names the description error_message: a wrong secret is answered 401 {"error": "invalid_client", "error_message": ...} with no error_description; the status and the error code are as before.',
    install: (app) =>
      editReplies(app, ['token'], (reply) => {
        const body = reply.body as Fields | undefined;
        if (reply.status < 400 || body === undefined || !('error_description' in body)) return reply;
        const { error_description: description, ...rest } = body;
        return { ...reply, body: { ...rest, error_message: description } };
      }),
  },
  {
    id: 'ho11-token-form-parser-takes-any-type',
    clause: 'token.observed.json-request',
    level: 'observed',
    bug: 'The form parser mounted ahead of the JSON one with type "*/*" (so that clients which send no Content-Type are read), and it claims every body: a JSON token request is read as a form whose one parameter is its whole text and refused 400 instead of getting a token; a form request gets one as before.',
    install: (app) =>
      editRequests(app, 'token', (exchange) =>
        isJsonMediaType(exchange.headers['content-type'])
          ? { ...exchange, headers: { ...exchange.headers, 'content-type': FORM_MEDIA_TYPE } }
          : exchange,
      ),
  },
  {
    id: 'ho11-token-requested-scopes-some',
    clause: 'token.observed.granted-scopes',
    level: 'observed',
    bug: 'The scopes asked for checked against the grant with requested.some((scope) => granted.includes(scope)) where every() was meant: a request for "read:event_deliveries delete:users" (one granted, one not) gets a token carrying both instead of 403; a request for "delete:users" alone is still refused.',
    install: (app) => {
      const issuer = capture(app, 'issuer');
      const store = capture(app, 'store');
      const tenant = capture(app, 'tenant');
      editReplies(app, ['token'], async (reply, exchange) => {
        if (reply.status !== 403) return reply;
        const { client_id: id, audience, scope } = tokenRequestOf(exchange);
        const client = id === undefined ? undefined : store().client(id);
        const identity = audience === undefined ? undefined : tenant().identityForAudience(audience, exchange.headers.host);
        if (client === undefined || identity === undefined || scope === undefined || !client.managementGrant) return reply;
        const wanted = [...new Set(scope.split(' ').filter((s) => s.length > 0))];
        if (!wanted.some((s) => client.scopes.includes(s))) return reply;
        const token = await issuer().issue(client, wanted, identity);
        return jsonReply(
          200,
          { access_token: token.accessToken, token_type: 'Bearer', expires_in: token.expiresIn, scope: token.scope },
          reply.headers,
        );
      });
    },
  },
]);
