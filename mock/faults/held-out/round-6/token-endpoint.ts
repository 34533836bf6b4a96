// The token endpoint and what it issues: a relative audience resolved against the tenant, the
// RFC 8707 resource parameter read as the audience, the audience judged before the secret, a form
// body split on ";" as well as "&", a password grant falling through a switch, requested scopes outside the grant silently dropped, Basic
// credentials without a password completed from the body, expires_in written as the expiry time,
// and the JWKS exported from the private key. Each changes the answer to one near miss; requests
// without it are answered as before.
import { exportJWK } from 'jose';
import { decodeJwt } from 'jose';
import { tokenDescriptions } from '../../../errors.ts';
import { isFormMediaType } from '../../../stages/json-body.ts';
import { capture } from '../../support/captured.ts';
import { editReplies, editRequests } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { tokenBodyFields } from '../round-2/support/token-fields.ts';
import { basicCredentialsOf } from '../round-4/support/token-requests.ts';
import { editTokenParameters } from '../support/token-parameters.ts';

const PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi'] as const;

export const tokenEndpointFaults = heldOutFamily([
  {
    id: 'ho6-token-relative-audience-resolved',
    clause: 'token.endpoint.audience',
    level: 'contract',
    bug: 'The audience resolved as a URL relative to the tenant (new URL(audience, "https://<tenant>")), since the spec writes it as the path /api/v2/: a token request whose audience is the bare path "/api/v2/", which names no API, gets a management token instead of being refused; "/api/v3/" is still refused.',
    install: (app) => {
      const tenant = capture(app, 'tenant');
      editTokenParameters(app, (params) =>
        params.audience?.startsWith('/') ? { ...params, audience: new URL(params.audience, `https://${tenant().domain}`).href } : params,
      );
    },
  },
  {
    id: 'ho6-token-resource-read-as-audience',
    clause: 'token.endpoint.audience',
    level: 'contract',
    bug: 'The endpoint reads the RFC 8707 resource parameter when audience is missing (audience ?? resource): a token request with no audience and resource set to the management audience gets a management token instead of 400; a request with neither is still refused.',
    install: (app) =>
      editTokenParameters(app, (params) =>
        params.audience === undefined && params.resource !== undefined ? { ...params, audience: params.resource } : params,
      ),
  },
  {
    id: 'ho6-token-audience-judged-before-secret',
    clause: 'token.endpoint.wrong-secret',
    level: 'contract',
    bug: 'The endpoint looks up the API the audience names before it authenticates the client: a request with a wrong client secret and an audience naming no API is answered 403 access_denied instead of 401 invalid_client; a wrong secret with the management audience is still answered 401.',
    install: (app) => {
      const tenant = capture(app, 'tenant');
      const errors = capture(app, 'errors');
      editReplies(app, ['token'], (reply, exchange) => {
        const { audience } = tokenBodyFields(exchange);
        const body = reply.body as { error?: unknown } | undefined;
        if (reply.status !== 401 || body?.error !== 'invalid_client' || audience === undefined) return reply;
        if (tenant().identityForAudience(audience, exchange.headers.host) || tenant().api(audience)) return reply;
        const refused = errors().tokenReply('access_denied', tokenDescriptions.serviceNotFound(audience));
        return { ...refused, headers: { ...reply.headers, ...refused.headers } };
      });
    },
  },
  {
    id: 'ho6-token-form-split-on-semicolons',
    clause: 'token.endpoint.wrong-secret',
    level: 'contract',
    bug: 'Form bodies parsed by a legacy query parser that splits on ";" as well as "&": a request whose client_secret is the right secret followed by ";x" (a wrong secret, ";" being an ordinary character of a form value) gets a token instead of 401; the secret followed by "x" is still refused.',
    install: (app) =>
      editRequests(app, 'token', (exchange) => {
        const text = exchange.body.toString('utf8');
        if (!isFormMediaType(exchange.headers['content-type']) || !text.includes(';')) return exchange;
        return { ...exchange, body: Buffer.from(new URLSearchParams(text.replace(/;/g, '&')).toString(), 'utf8') };
      }),
  },
  {
    id: 'ho6-token-grant-switch-falls-through',
    clause: 'token.endpoint.grant-type',
    level: 'contract',
    bug: 'The grant types dispatched by a switch whose unfinished "password" case has no break and falls through into "client_credentials": a request with grant_type=password and the client\'s credentials gets a client-credentials token instead of 400 unsupported_grant_type; grant_type=authorization_code is still refused.',
    install: (app) =>
      editTokenParameters(app, (params) => (params.grant_type === 'password' ? { ...params, grant_type: 'client_credentials' } : params)),
  },
  {
    id: 'ho6-token-ungranted-scopes-dropped',
    clause: 'token.observed.granted-scopes',
    level: 'observed',
    bug: 'Requested scopes filtered down to the grant (requested.filter(granted.includes)) and refused only when none is left: a request for a granted scope and one the client is not granted gets a token with the granted one instead of 403; a request naming only scopes outside the grant is still refused.',
    install: (app) => {
      const store = capture(app, 'store');
      editTokenParameters(app, (params) => {
        const granted = params.client_id === undefined ? undefined : store().client(params.client_id)?.scopes;
        const wanted = (params.scope ?? '').split(' ').filter((s) => s.length > 0);
        const kept = granted ? wanted.filter((s) => granted.includes(s)) : wanted;
        return kept.length === 0 || kept.length === wanted.length ? params : { ...params, scope: kept.join(' ') };
      });
    },
  },
  {
    id: 'ho6-token-basic-password-from-body',
    clause: 'token.observed.request-rules',
    level: 'observed',
    bug: 'Basic credentials with an empty password completed from the body\'s client_secret (a client library that sends the id in Basic and the secret in the form): a request authenticating with both "Basic <client_id>:" and client_secret in the body, two methods at once, gets a token instead of 400 invalid_request; Basic with a password and a body secret is still refused.',
    install: (app) =>
      editRequests(app, 'token', (exchange) => {
        const basic = basicCredentialsOf(exchange.headers.authorization);
        const { client_secret: secret } = tokenBodyFields(exchange);
        if (!basic || basic.clientSecret !== '' || secret === undefined) return exchange;
        const { authorization: _dropped, ...headers } = exchange.headers;
        const text = exchange.body.toString('utf8');
        if (!isFormMediaType(exchange.headers['content-type'])) return exchange;
        const form = new URLSearchParams(text);
        form.set('client_id', basic.clientId);
        return { ...exchange, headers, body: Buffer.from(form.toString(), 'utf8') };
      }),
  },
  {
    id: 'ho6-token-expires-in-as-expiry-time',
    clause: 'token.observed.response',
    level: 'observed',
    bug: "The token answer's expires_in written from the token's exp claim (the Unix time it expires) instead of its lifetime in seconds: every token answer says expires_in of about 1.8 billion instead of 86400; the token itself is unchanged.",
    install: (app) =>
      editReplies(app, ['token'], (reply) => {
        const body = reply.body as { access_token?: unknown; expires_in?: unknown } | undefined;
        if (reply.status !== 200 || typeof body?.access_token !== 'string') return reply;
        const { exp } = decodeJwt(body.access_token);
        return typeof exp === 'number' ? { ...reply, body: { ...body, expires_in: exp } } : reply;
      }),
  },
  {
    id: 'ho6-jwks-exported-from-private-key',
    clause: 'token.observed.jwks',
    level: 'observed',
    bug: `The JWKS built from exportJWK(privateKey) where the public key was meant: each published key carries the private members (${PRIVATE_MEMBERS.join(', ')}) beside n and e, so anyone can sign tokens; kid, n and e are unchanged.`,
    install: (app) => {
      const keys = capture(app, 'keys');
      editReplies(app, ['jwks'], async (reply) => {
        const body = reply.body as { keys?: Array<Record<string, unknown>> } | undefined;
        if (reply.status !== 200 || !Array.isArray(body?.keys)) return reply;
        const secret = (await exportJWK(keys().privateKey)) as Record<string, unknown>;
        const members = Object.fromEntries(PRIVATE_MEMBERS.map((name) => [name, secret[name]]));
        return { ...reply, body: { ...body, keys: body.keys.map((key) => ({ ...key, ...members })) } };
      });
    },
  },
]);
