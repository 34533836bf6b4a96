// The token endpoint and what it publishes: form values percent-decoded a second time, an audience
// host with "www." folded away, and a missing client_id read from a bearer token sent along; and
// the observed rules: the JWKS modulus in standard base64, the discovery URLs built from
// X-Forwarded-Host, and tokens handed out again from a cache with expires_in counted down. Each
// changes the answer to one near miss; a plainly wrong request is answered as before.
import { decodeJwt } from 'jose';
import { bearerToken } from '../../../auth/bearer.ts';
import type { Reply } from '../../../exchange.ts';
import { capture } from '../../support/captured.ts';
import { editReplies, editRequests } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { withTokenParameters } from '../round-4/support/token-requests.ts';
import { tokenRequestOf } from '../round-10/support/token-request-view.ts';
import { editTokenParameters } from '../support/token-parameters.ts';

type Fields = Record<string, unknown>;

/** The reply's body when it is an object. */
function bodyOf(reply: Reply): Fields | undefined {
  return reply.body !== null && typeof reply.body === 'object' && !Array.isArray(reply.body) ? (reply.body as Fields) : undefined;
}

/** The URL with its host replaced, when it parses; else the text as it is. */
function onHost(url: unknown, host: string): unknown {
  if (typeof url !== 'string' || !URL.canParse(url)) return url;
  const parsed = new URL(url);
  parsed.host = host;
  return parsed.toString();
}

export const tokenEndpointFaults = heldOutFamily([
  {
    id: 'ho13-token-form-decoded-twice',
    clause: 'token.endpoint.wrong-secret',
    level: 'contract',
    bug: 'Token parameters percent-decoded again after the form parser has decoded them (a decodeURIComponent left in from when the body was read by hand): a client_secret whose first character "a" is sent as "%2561" in the form (the text "%61..." once decoded, which is not the secret) is read as "a..." and gets a token instead of 401; a secret with a character plainly changed is still refused.',
    install: (app) =>
      editTokenParameters(app, (params) => {
        const secret = params.client_secret;
        if (secret === undefined || !/%[0-9A-Fa-f]{2}/.test(secret)) return params;
        try {
          return { ...params, client_secret: decodeURIComponent(secret) };
        } catch {
          return params;
        }
      }),
  },
  {
    id: 'ho13-audience-www-folded',
    clause: 'token.endpoint.audience',
    level: 'contract',
    bug: 'The audience looked up with its host normalised the way the marketing site\'s links are, a leading "www." removed: the management audience on "www.<tenant host>" gets a token instead of being refused; "wwwx.<tenant host>" is still refused.',
    install: (app) =>
      editTokenParameters(app, (params) => {
        const { audience } = params;
        if (audience === undefined || !URL.canParse(audience)) return params;
        const url = new URL(audience);
        if (!url.hostname.startsWith('www.')) return params;
        return { ...params, audience: audience.replace(`//${url.host}`, `//${url.host.slice('www.'.length)}`) };
      }),
  },
  {
    id: 'ho13-token-client-from-bearer',
    clause: 'token.endpoint.client-id',
    level: 'contract',
    bug: 'A token request without client_id given the client of the bearer token sent along with it, a convenience for scripts renewing their own token (the Authorization header read as Bearer before Basic): a request with the client\'s secret and no client_id, sent with "Authorization: Bearer <a valid token of that client>", gets a token instead of being refused; without that header it is still refused.',
    install: (app) => {
      const verifier = capture(app, 'verifier');
      editRequests(app, 'token', async (exchange) => {
        const { authorization, host } = exchange.headers;
        const token = bearerToken(authorization);
        if (token === undefined || tokenRequestOf(exchange).client_id !== undefined) return exchange;
        const verification = await verifier().verify(authorization, host);
        const azp = verification.ok ? decodeJwt(token).azp : undefined;
        if (typeof azp !== 'string') return exchange;
        const { authorization: _bearer, ...headers } = exchange.headers;
        return withTokenParameters({ ...exchange, headers }, { client_id: azp });
      });
    },
  },
  {
    id: 'ho13-jwks-modulus-standard-base64',
    clause: 'token.observed.jwks',
    level: 'observed',
    bug: 'The JWKS built by a helper that encodes the key\'s modulus with Buffer.toString(\'base64\') where JWK wants base64url (RFC 7518 6.3.1): n is published with "+", "/" and "==" padding, which strict JWK readers refuse; e, kid and the certificate are as before.',
    install: (app) =>
      editReplies(app, ['jwks'], (reply) => {
        const body = bodyOf(reply);
        if (!body || !Array.isArray(body.keys)) return reply;
        const keys = (body.keys as Fields[]).map((key) =>
          typeof key.n === 'string' ? { ...key, n: Buffer.from(key.n, 'base64url').toString('base64') } : key,
        );
        return { ...reply, body: { ...body, keys } };
      }),
  },
  {
    id: 'ho13-discovery-urls-from-forwarded-host',
    clause: 'token.observed.discovery',
    level: 'observed',
    bug: "The discovery document's endpoint URLs built from the request's X-Forwarded-Host (trust proxy turned on for the CDN) while the issuer comes from the tenant's configuration: a request with X-Forwarded-Host: attacker.example gets token_endpoint and jwks_uri on attacker.example, not on the issuer's host; without the header they are as before.",
    install: (app) =>
      editReplies(app, ['discovery'], (reply, exchange) => {
        const forwarded = exchange.headers['x-forwarded-host'];
        const body = bodyOf(reply);
        if (reply.status !== 200 || typeof forwarded !== 'string' || !body) return reply;
        const host = forwarded.split(',')[0]!.trim();
        return { ...reply, body: { ...body, token_endpoint: onHost(body.token_endpoint, host), jwks_uri: onHost(body.jwks_uri, host) } };
      }),
  },
  {
    id: 'ho13-token-reused-from-cache',
    clause: 'token.lifetime',
    level: 'observed',
    bug: 'Issued tokens cached per client, audience and scope and handed out again while they are valid (to spare the signing key), with expires_in counted down to what is left: a second request an hour after the first gets the same access_token with expires_in 82800 instead of a new token living 86400 seconds; the first request is answered as before.',
    install: (app) => {
      const clock = capture(app, 'clock');
      const cache = new Map<string, Fields>();
      editReplies(app, ['token'], (reply, exchange) => {
        const body = bodyOf(reply);
        if (reply.status !== 200 || !body || typeof body.access_token !== 'string') return reply;
        const { client_id: client, audience, scope } = tokenRequestOf(exchange);
        const key = JSON.stringify([client, audience, scope ?? '']);
        const now = Math.floor(clock().now() / 1000);
        const cached = cache.get(key);
        const exp = cached ? decodeJwt(cached.access_token as string).exp : undefined;
        if (cached && typeof exp === 'number' && exp > now) return { ...reply, body: { ...cached, expires_in: exp - now } };
        cache.set(key, body);
        return reply;
      });
    },
  },
]);
