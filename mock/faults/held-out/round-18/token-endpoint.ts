// The token endpoint: an audience compared case-insensitively, an audience's fragment dropped by a
// URL parser, a client_id cut at a NUL by a C-string lookup; and the observed rules: token_type in
// lower case, expires_in worked out from the clock with its fraction, a repeated form parameter
// read as its last value. Each changes the answer to
// one near miss; other requests are answered as before.
import { editReplies, editRequests } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { editTokenParams } from '../round-17/support/token-params.ts';

type Fields = Record<string, unknown>;
const isObject = (value: unknown): value is Fields => value !== null && typeof value === 'object' && !Array.isArray(value);

export const tokenEndpointFaults = heldOutFamily([
  {
    id: 'ho18-audience-case-folded',
    clause: 'token.endpoint.audience',
    level: 'contract',
    bug: 'The audience looked up in a case-insensitive map (keys lower-cased, as for host names): "HTTPS://<HOST>/API/V2/" is granted a management token instead of refused, though a URL\'s path is case-sensitive; ".../api/v3/" is still refused.',
    install: (app) =>
      editTokenParams(app, (params) =>
        typeof params.audience === 'string' && params.audience !== params.audience.toLowerCase()
          ? { ...params, audience: params.audience.toLowerCase() }
          : params,
      ),
  },
  {
    id: 'ho18-audience-fragment-dropped',
    clause: 'token.endpoint.audience',
    level: 'contract',
    bug: 'The audience parsed with new URL() and compared without its hash (url.origin + url.pathname): ".../api/v2/#reports" is granted a management token instead of refused; ".../api/v2/reports" is still refused.',
    install: (app) =>
      editTokenParams(app, (params) =>
        typeof params.audience === 'string' && params.audience.includes('#')
          ? { ...params, audience: params.audience.slice(0, params.audience.indexOf('#')) }
          : params,
      ),
  },
  {
    id: 'ho18-client-id-cut-at-nul',
    clause: 'token.endpoint.client-id',
    level: 'contract',
    bug: 'client_id handed to a native lookup as a C string, which ends at the first NUL: "<client id>\\u0000x" is taken for the client and granted instead of refused; "<client id>x" is still refused.',
    install: (app) =>
      editTokenParams(app, (params) =>
        typeof params.client_id === 'string' && params.client_id.indexOf('\u0000') > 0
          ? { ...params, client_id: params.client_id.slice(0, params.client_id.indexOf('\u0000')) }
          : params,
      ),
  },
  {
    id: 'ho18-repeated-parameter-last-wins',
    clause: 'token.observed.request-rules',
    level: 'observed',
    bug: 'The form read with Object.fromEntries(new URLSearchParams(body)), which keeps the last of a repeated parameter, instead of refusing it (RFC 6749 3.2): "grant_type=password&grant_type=client_credentials" is granted instead of 400; with client_credentials first and password last it is still refused.',
    install: (app) =>
      editRequests(app, 'token', (exchange) => {
        const type = String(exchange.headers['content-type'] ?? '').toLowerCase();
        if (!type.startsWith('application/x-www-form-urlencoded')) return exchange;
        const params = new URLSearchParams(exchange.body.toString('utf8'));
        const names = [...params.keys()];
        if (new Set(names).size === names.length) return exchange;
        const last = new URLSearchParams(Object.fromEntries(params));
        return { ...exchange, body: Buffer.from(last.toString(), 'utf8') };
      }),
  },
  {
    id: 'ho18-token-type-lower-case',
    clause: 'token.observed.response',
    level: 'observed',
    bug: 'token_type written as "bearer" (the OAuth library\'s constant, RFC 6749 calls it case-insensitive) instead of "Bearer" as the service answers; access_token, expires_in and scope are as before.',
    install: (app) =>
      editReplies(app, ['token'], (reply) =>
        reply.status === 200 && isObject(reply.body) && typeof reply.body.token_type === 'string'
          ? { ...reply, body: { ...reply.body, token_type: reply.body.token_type.toLowerCase() } }
          : reply,
      ),
  },
  {
    id: 'ho18-expires-in-from-clock-fraction',
    clause: 'token.lifetime',
    level: 'observed',
    bug: 'expires_in worked out as (exp * 1000 - Date.now()) / 1000 after the token was signed, a few milliseconds later: 86399.997 instead of 86400; exp = iat + 86400 in the token as before.',
    install: (app) =>
      editReplies(app, ['token'], (reply) =>
        reply.status === 200 && isObject(reply.body) && typeof reply.body.expires_in === 'number'
          ? { ...reply, body: { ...reply.body, expires_in: reply.body.expires_in - 0.003 } }
          : reply,
      ),
  },
]);
