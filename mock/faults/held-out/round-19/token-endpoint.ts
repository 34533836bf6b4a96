// The token endpoint: Basic credentials split on every colon (the secret cut at its first), a grant
// type bound with relaxed names, an audience whose empty path segments a router collapsed; and the
// observed rules: error codes written as a Java enum's name(), and the JWKS exponent written as a
// decimal number. Each changes the answer to one near miss; other requests are answered as before.
import { editReplies, editRequests } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { editTokenParams } from '../round-17/support/token-params.ts';

type Fields = Record<string, unknown>;
const isObject = (value: unknown): value is Fields => value !== null && typeof value === 'object' && !Array.isArray(value);
const GRANT = 'client_credentials';

export const tokenEndpointFaults = heldOutFamily([
  {
    id: 'ho19-basic-secret-cut-at-colon',
    clause: 'token.endpoint.wrong-secret',
    level: 'contract',
    bug: 'Basic credentials read as const [id, secret] = decoded.split(":") (every colon splits, the rest dropped): "<client id>:<secret>:x" is granted a token instead of 401 for a wrong secret; "<client id>:<secret>x" is still refused.',
    install: (app) =>
      editRequests(app, 'token', (exchange) => {
        const { authorization } = exchange.headers;
        const encoded = typeof authorization === 'string' ? /^Basic +([A-Za-z0-9+/]+={0,2})$/i.exec(authorization)?.[1] : undefined;
        if (encoded === undefined) return exchange;
        const parts = Buffer.from(encoded, 'base64').toString('utf8').split(':');
        if (parts.length < 3) return exchange;
        const cut = Buffer.from(`${parts[0]}:${parts[1]}`, 'utf8').toString('base64');
        return { ...exchange, headers: { ...exchange.headers, authorization: `Basic ${cut}` } };
      }),
  },
  {
    id: 'ho19-grant-type-relaxed-binding',
    clause: 'token.endpoint.grant-type',
    level: 'contract',
    bug: 'grant_type bound to an enum through relaxed binding (Spring Boot\'s, where "client-credentials" and "client_credentials" name one constant): grant_type "client-credentials" is granted a token instead of 400; "client credentials" is still refused.',
    install: (app) =>
      editTokenParams(app, (params) =>
        typeof params.grant_type === 'string' && params.grant_type !== GRANT && params.grant_type.replace(/-/g, '_') === GRANT
          ? { ...params, grant_type: GRANT }
          : params,
      ),
  },
  {
    id: 'ho19-audience-double-slash-collapsed',
    clause: 'token.endpoint.audience',
    level: 'contract',
    bug: 'The audience compared after a router\'s path clean-up that merges repeated slashes (path.Clean, merge_slashes): "https://<host>/api//v2/" is granted a management token instead of refused; "https://<host>/api/v2/v2/" is still refused.',
    install: (app) =>
      editTokenParams(app, (params) => {
        if (typeof params.audience !== 'string') return params;
        const match = /^(https?:\/\/[^/]+)(\/.*)$/.exec(params.audience);
        if (!match || !/\/\/+/.test(match[2]!)) return params;
        return { ...params, audience: `${match[1]}${match[2]!.replace(/\/\/+/g, '/')}` };
      }),
  },
  {
    id: 'ho19-error-code-enum-name',
    clause: 'token.observed.errors',
    level: 'observed',
    bug: 'The token endpoint\'s error code written with a Java enum\'s name() instead of its OAuth value: "error": "INVALID_CLIENT" instead of "invalid_client" on a bad secret (and the other codes the same); the status and error_description are as before.',
    install: (app) =>
      editReplies(app, ['token'], (reply) =>
        reply.status >= 400 && isObject(reply.body) && typeof reply.body.error === 'string'
          ? { ...reply, body: { ...reply.body, error: reply.body.error.toUpperCase() } }
          : reply,
      ),
  },
  {
    id: 'ho19-jwks-exponent-decimal',
    clause: 'token.observed.jwks',
    level: 'observed',
    bug: 'The JWKS built from RSAParameters printed as numbers: "e": "65537" (the decimal exponent) instead of "AQAB" (base64url of its bytes), so a client importing the key gets another exponent and no issued token verifies; n and kid are as before.',
    install: (app) =>
      editReplies(app, ['jwks'], (reply) => {
        if (reply.status !== 200 || !isObject(reply.body) || !Array.isArray(reply.body.keys)) return reply;
        const keys = reply.body.keys.map((key: unknown) =>
          isObject(key) && typeof key.e === 'string'
            ? { ...key, e: BigInt(`0x${Buffer.from(key.e, 'base64url').toString('hex')}`).toString(10) }
            : key,
        );
        return { ...reply, body: { ...reply.body, keys } };
      }),
  },
]);
