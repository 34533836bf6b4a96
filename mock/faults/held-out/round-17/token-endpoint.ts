// The token endpoint: grant_type compared case-insensitively and client_id trimmed; and the
// observed rules: the JWKS modulus written in
// standard base64, and the discovery issuer without its trailing slash. Each changes the answer to
// one near miss; other requests are answered as before.
import { editReplies } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { editTokenParams } from './support/token-params.ts';

type Fields = Record<string, unknown>;
const isObject = (value: unknown): value is Fields => value !== null && typeof value === 'object' && !Array.isArray(value);

export const tokenEndpointFaults = heldOutFamily([
  {
    id: 'ho17-grant-type-case-folded',
    clause: 'token.endpoint.grant-type',
    level: 'contract',
    bug: 'grant_type compared with a case-insensitive switch (value.toLowerCase()): "Client_Credentials" is granted instead of refused; "password" is still refused.',
    install: (app) =>
      editTokenParams(app, (params) =>
        typeof params.grant_type === 'string' && params.grant_type !== params.grant_type.toLowerCase()
          ? { ...params, grant_type: params.grant_type.toLowerCase() }
          : params,
      ),
  },
  {
    id: 'ho17-client-id-trimmed',
    clause: 'token.endpoint.client-id',
    level: 'contract',
    bug: 'client_id trimmed before lookup (a form library\'s trim option): "<client id> " is granted instead of refused; an unknown client id is still refused.',
    install: (app) =>
      editTokenParams(app, (params) =>
        typeof params.client_id === 'string' && params.client_id.trim() !== params.client_id && params.client_id.trim().length > 0
          ? { ...params, client_id: params.client_id.trim() }
          : params,
      ),
  },
  {
    id: 'ho17-jwks-modulus-standard-base64',
    clause: 'token.observed.jwks',
    level: 'observed',
    bug: 'The key set written with key.n.toString("base64") instead of "base64url": the modulus carries +, / and = padding instead of base64url; kid, kty and e are as before.',
    install: (app) =>
      editReplies(app, ['jwks'], (reply) => {
        if (!isObject(reply.body) || !Array.isArray(reply.body.keys)) return reply;
        const keys = reply.body.keys.map((key: unknown) =>
          isObject(key) && typeof key.n === 'string' ? { ...key, n: Buffer.from(key.n, 'base64url').toString('base64') } : key,
        );
        return { ...reply, body: { ...reply.body, keys } };
      }),
  },
  {
    id: 'ho17-discovery-issuer-slash-stripped',
    clause: 'token.observed.discovery',
    level: 'observed',
    bug: 'The discovery document\'s issuer built with a URL-join helper that strips trailing slashes: issuer "https://<host>" instead of "https://<host>/"; the endpoints are as before.',
    install: (app) =>
      editReplies(app, ['discovery'], (reply) =>
        isObject(reply.body) && typeof reply.body.issuer === 'string' && reply.body.issuer.endsWith('/')
          ? { ...reply, body: { ...reply.body, issuer: reply.body.issuer.replace(/\/+$/, '') } }
          : reply,
      ),
  },
]);
