// The token endpoint and what it publishes: the JWKS written from WebCrypto's exportKey('jwk', ...),
// which adds key_ops and ext beside use; and a token service on Luxon whose iat is the clock's
// fractional seconds rounded while exp is counted from them truncated. Each changes what the
// endpoint publishes or issues; the rest is as before.
import { SignJWT, decodeProtectedHeader, type JWTHeaderParameters } from 'jose';
import { jsonObjectOf } from '../../../auth/bearer.ts';
import { editReplies } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';

type Fields = Record<string, unknown>;
const isObject = (value: unknown): value is Fields => value !== null && typeof value === 'object' && !Array.isArray(value);

export const tokenEndpointFaults = heldOutFamily([
  {
    id: 'ho31-jwks-webcrypto-export-key-ops',
    clause: 'token.observed.jwks',
    level: 'observed',
    bug: 'A JWKS endpoint (a Cloudflare Worker) that writes each key with crypto.subtle.exportKey("jwk", publicKey) and adds kid, use, alg and the certificate to it, and WebCrypto\'s export carries key_ops ["verify"] and ext true: every key of the JWKS has key_ops and ext beside use (RFC 7517 4.3 asks that use and key_ops not be used together), members the tenant\'s keys do not have; the key material is as before.',
    install: (app) =>
      editReplies(app, ['jwks'], (reply) => {
        if (reply.status !== 200 || !isObject(reply.body) || !Array.isArray(reply.body.keys)) return reply;
        const keys = reply.body.keys.map((key: unknown) => (isObject(key) ? { ...key, key_ops: ['verify'], ext: true } : key));
        return { ...reply, body: { ...reply.body, keys } };
      }),
  },
  {
    id: 'ho31-token-luxon-iat-rounded-exp-floored',
    clause: 'token.lifetime',
    level: 'observed',
    bug: 'A token service on Luxon that writes iat as Math.round(DateTime.utc().toSeconds()) and exp as Math.floor(now.toSeconds()) + lifetime (two helpers written apart): a token issued in the second half of a second has exp = iat + 86399 instead of iat + 86400; one issued in the first half, and expires_in, are as before.',
    install: (app) =>
      app.override('issuer', (issuer, built) => ({
        async issue(client, scopes, target) {
          const issued = await issuer.issue(client, scopes, target);
          const claims = jsonObjectOf(issued.accessToken.split('.')[1]);
          if (!claims) return issued;
          const nowSeconds = built.clock!.now() / 1000;
          const accessToken = await new SignJWT({ ...claims, iat: Math.round(nowSeconds), exp: Math.floor(nowSeconds) + issued.expiresIn })
            .setProtectedHeader(decodeProtectedHeader(issued.accessToken) as JWTHeaderParameters)
            .sign(built.keys!.privateKey);
          return { ...issued, accessToken };
        },
      })),
  },
]);
