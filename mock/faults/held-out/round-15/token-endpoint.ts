// The token endpoint and what it publishes: a form body decoded with decodeURIComponent alone ("+"
// left a plus); and the observed rules: an unsupported grant type answered invalid_grant, the JWKS
// written from jose's exportJWK without alg and use, the discovery document's jwks_uri a relative
// reference, and token_type written as the token's typ. Each changes the answer to one near miss or
// one member; everything else is answered as before.
import { isFormMediaType } from '../../../stages/json-body.ts';
import { editReplies } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';

type Fields = Record<string, unknown>;

/** The reply with its object body changed by `edit` where it is a 200. */
const editOk =
  (edit: (body: Fields) => Fields) =>
  <R extends { status: number; body?: unknown }>(reply: R): R =>
    reply.status === 200 && reply.body !== null && typeof reply.body === 'object' ? { ...reply, body: edit(reply.body as Fields) } : reply;

export const tokenEndpointFaults = heldOutFamily([
  {
    id: 'ho15-form-plus-kept-literal',
    clause: 'token.endpoint',
    level: 'contract',
    bug: 'The form body read by a hand-written parser that splits on "&" and "=" and runs decodeURIComponent over each part, which leaves "+" a plus where application/x-www-form-urlencoded makes it a space: a form request whose scope is written "read:event_streams+update:event_deliveries" (two granted scopes, as browsers and URLSearchParams encode them) is refused 403 (a scope not granted) instead of getting a token; the same scopes written with "%20" still get one.',
    install: (app) =>
      app.wrapRoute('token', (next) => (exchange) => {
        if (!isFormMediaType(exchange.headers['content-type'])) return next(exchange);
        const text = exchange.body.toString('utf8');
        if (!text.includes('+')) return next(exchange);
        return next({ ...exchange, body: Buffer.from(text.replace(/\+/g, '%2B'), 'utf8') });
      }),
  },
  {
    id: 'ho15-unsupported-grant-as-invalid-grant',
    clause: 'token.observed.errors',
    level: 'observed',
    bug: 'Every grant the server does not handle answered with the OAuth error invalid_grant, the code RFC 6749 section 5.2 gives a bad authorization grant, where unsupported_grant_type is due: grant_type "password" (or any unknown grant) gets 400 error "invalid_grant" instead of "unsupported_grant_type"; a request without grant_type is still answered invalid_request.',
    install: (app) =>
      editReplies(app, ['token'], (reply) => {
        const body = reply.body as Fields | undefined;
        return reply.status === 400 && body?.error === 'unsupported_grant_type'
          ? { ...reply, body: { ...body, error: 'invalid_grant' } }
          : reply;
      }),
  },
  {
    id: 'ho15-jwks-without-alg-and-use',
    clause: 'token.observed.jwks',
    level: 'observed',
    bug: 'The JWKS written from jose\'s exportJWK(publicKey), which gives kty, n and e only, with kid, x5t and x5c added by hand but alg and use forgotten: every key lacks alg "RS256" and use "sig"; kty, n, e, kid, x5t and x5c are as before.',
    install: (app) =>
      editReplies(
        app,
        ['jwks'],
        editOk((body) =>
          Array.isArray(body.keys)
            ? {
                ...body,
                keys: body.keys.map((key: Fields) =>
                  Object.fromEntries(Object.entries(key).filter(([name]) => name !== 'alg' && name !== 'use')),
                ),
              }
            : body,
        ),
      ),
  },
  {
    id: 'ho15-discovery-jwks-uri-relative',
    clause: 'token.observed.discovery',
    level: 'observed',
    bug: 'jwks_uri written as the route\'s path ("/.well-known/jwks.json"), a relative reference as the router knows it, where OpenID Connect Discovery requires an absolute URL: the discovery document\'s jwks_uri is "/.well-known/jwks.json" instead of "<issuer>.well-known/jwks.json"; issuer and token_endpoint are as before.',
    install: (app) =>
      editReplies(
        app,
        ['discovery'],
        editOk((body) =>
          typeof body.jwks_uri === 'string' && URL.canParse(body.jwks_uri) ? { ...body, jwks_uri: new URL(body.jwks_uri).pathname } : body,
        ),
      ),
  },
  {
    id: 'ho15-token-type-from-jose-typ',
    clause: 'token.observed.response',
    level: 'observed',
    bug: 'token_type filled from the issued token\'s JOSE header (its typ, "JWT"), the two taken for the same notion, where RFC 6750 section 6.1.1 and the service say "Bearer": every token answer has token_type "JWT"; access_token, expires_in and scope are as before.',
    install: (app) =>
      editReplies(
        app,
        ['token'],
        editOk((body) => ('token_type' in body ? { ...body, token_type: 'JWT' } : body)),
      ),
  },
]);
