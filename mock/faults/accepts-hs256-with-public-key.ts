// Algorithm confusion: a verifier that lets the token choose its algorithm and hands the tenant's
// public key (as PEM text) to whatever alg says, so an HS256 token keyed with the published public
// key verifies.
import { compactVerify, exportSPKI, importJWK } from 'jose';
import { decodeJws, jsonObjectOf } from '../auth/bearer.ts';
import type { Fault } from './fault.ts';
import { alsoAccept } from './support/verifier-edits.ts';

const HS256 = 'HS256';

export const acceptsHs256WithPublicKey: Fault = {
  id: 'accepts-hs256-with-public-key',
  clause: 'redeliver.errors.401.signature',
  description: 'The token verifier accepts HS256 tokens whose HMAC key is the published public key (algorithm confusion), at every operation.',
  install(app) {
    alsoAccept(app, async (token, { keys }) => {
      if (decodeJws(token)?.header.alg !== HS256) return undefined;
      const jwk = keys.jwks.keys[0]!;
      const pem = await exportSPKI((await importJWK({ ...jwk }, jwk.alg, { extractable: true })) as Parameters<typeof exportSPKI>[0]);
      try {
        const { payload } = await compactVerify(token, new TextEncoder().encode(pem), { algorithms: [HS256] });
        return jsonObjectOf(Buffer.from(payload).toString('base64url'));
      } catch {
        return undefined;
      }
    });
  },
};
