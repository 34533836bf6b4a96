// The token endpoint and what it publishes: the sent secret cut to the stored secret's length
// before a constant-time compare, the client looked up under a case-insensitive collation, and the
// audience looked up without its query; and the observed rules: the JWKS exponent written from a
// four-byte integer, a failed authentication with body credentials answered 400, and a trailing
// slash answered with a redirect. Each changes the answer to one near miss; a plainly wrong request
// is answered as before.
import { capture } from '../../support/captured.ts';
import { editReplies } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { editTokenParameters } from '../support/token-parameters.ts';

/** The exponent 65537 written by Buffer.writeUInt32BE: four bytes, the leading one zero. */
const FOUR_BYTE_EXPONENT = Buffer.from([0, 1, 0, 1]).toString('base64url');

export const tokenEndpointFaults = heldOutFamily([
  {
    id: 'ho14-secret-cut-to-stored-length',
    clause: 'token.endpoint.wrong-secret',
    level: 'contract',
    bug: 'The secret compared with crypto.timingSafeEqual, which throws on buffers of unequal length, so the sent secret is first cut to the stored one\'s length (sent.subarray(0, stored.length)): the right secret with characters appended ("<secret>x") gets a token instead of 401; the secret with its last character changed is still refused.',
    install: (app) => {
      const store = capture(app, 'store');
      editTokenParameters(app, (params) => {
        const { client_id: id, client_secret: sent } = params;
        const stored = id === undefined ? undefined : store().client(id)?.secret;
        return stored !== undefined && sent !== undefined && sent.length > stored.length && sent.startsWith(stored)
          ? { ...params, client_secret: stored }
          : params;
      });
    },
  },
  {
    id: 'ho14-client-id-collation-folded',
    clause: 'token.endpoint.client-id',
    level: 'contract',
    bug: "The client looked up in a table whose client_id column has a case-insensitive collation (utf8mb4_general_ci), and the token made for the row found: a request with the client's id in another letter case and its secret gets a token instead of 401; an id with one character replaced is still refused.",
    install: (app) => {
      const store = capture(app, 'store');
      editTokenParameters(app, (params) => {
        const id = params.client_id;
        if (id === undefined || store().client(id) !== undefined) return params;
        const found = store()
          .clients()
          .find((client) => client.clientId.toLowerCase() === id.toLowerCase());
        return found ? { ...params, client_id: found.clientId } : params;
      });
    },
  },
  {
    id: 'ho14-jwks-exponent-four-bytes',
    clause: 'token.observed.jwks',
    level: 'observed',
    bug: `The JWKS written by a hand-made exporter that puts the public exponent in a four-byte buffer (buf.writeUInt32BE(65537)) before encoding it: every key has e "${FOUR_BYTE_EXPONENT}" instead of "AQAB" (base64url of the integer's bytes without leading zeros, RFC 7518 section 6.3.1); n and the other members are as before.`,
    install: (app) =>
      editReplies(app, ['jwks'], (reply) => {
        const body = reply.body as { keys?: unknown } | undefined;
        if (reply.status !== 200 || body === undefined || !Array.isArray(body.keys)) return reply;
        return {
          ...reply,
          body: {
            ...body,
            keys: body.keys.map((key: Record<string, unknown>) => (key.e === 'AQAB' ? { ...key, e: FOUR_BYTE_EXPONENT } : key)),
          },
        };
      }),
  },
  {
    id: 'ho14-audience-query-dropped',
    clause: 'token.endpoint.audience',
    level: 'contract',
    bug: 'The audience parsed as a URL and looked up by origin + pathname, the query and fragment left out (a helper written to compare callback URLs): a request for "https://<tenant>/api/v2/?env=prod" (or with "#x"), which names no API, gets a management token instead of being refused; "https://<tenant>/api/v3/?env=prod" is still refused.',
    install: (app) =>
      editTokenParameters(app, (params) => {
        const { audience } = params;
        if (audience === undefined || !URL.canParse(audience)) return params;
        const url = new URL(audience);
        return url.search === '' && url.hash === '' && !audience.includes('?') && !audience.includes('#')
          ? params
          : { ...params, audience: `${url.origin}${url.pathname}` };
      }),
  },
  {
    id: 'ho14-invalid-client-400-for-body-credentials',
    clause: 'token.observed.errors',
    level: 'observed',
    bug: 'RFC 6749 section 5.2 read as "401 only when the client authenticated with the Authorization header", so a failed authentication with credentials in the body is answered 400 invalid_client: a wrong client_secret in the body gets 400 instead of 401; a wrong secret sent with HTTP Basic is still 401.',
    install: (app) =>
      editReplies(app, ['token'], (reply, exchange) => {
        const body = reply.body as { error?: unknown } | undefined;
        return reply.status === 401 && body?.error === 'invalid_client' && !/^Basic /i.test(exchange.headers.authorization ?? '')
          ? { ...reply, status: 400 }
          : reply;
      }),
  },
  {
    id: 'ho14-trailing-slash-redirected',
    clause: 'token.observed.json-request',
    level: 'observed',
    bug: 'A trailing-slash middleware in front of the token endpoint (a framework\'s trailingSlash: "never" setting) that answers a path ending in "/" with 308 Permanent Redirect to the path without it: a token request to /oauth/token/ gets 308 with Location /oauth/token instead of a token; /oauth/token is answered as before.',
    install: (app) =>
      app.wrapRoute(
        'token',
        (next) => async (exchange) =>
          exchange.path.length > 1 && exchange.path.endsWith('/')
            ? { status: 308, headers: { location: `${exchange.path.replace(/\/+$/, '')}${exchange.query ? `?${exchange.query}` : ''}` } }
            : next(exchange),
      ),
  },
]);
