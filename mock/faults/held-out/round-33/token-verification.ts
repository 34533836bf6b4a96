// Token verification: an Express API verifying with jsonwebtoken and no algorithms option, whose
// default list for an RSA public key holds RS384 and RS512 beside RS256; and a Next.js middleware
// comparing the issuer's origin (new URL(iss).origin) instead of the issuer. Each changes the
// verdict on its near miss; other tokens are judged as before.
import { verify as verifySignature } from 'node:crypto';
import { jsonObjectOf } from '../../../auth/bearer.ts';
import { alsoAccept, forgiveClaim } from '../../support/verifier-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';

/** jsonwebtoken 9's default algorithms for an RSA public key, beyond RS256 (the PS ones need another padding). */
const RSA_DIGESTS: ReadonlyMap<string, string> = new Map([
  ['RS384', 'sha384'],
  ['RS512', 'sha512'],
]);

const originOf = (iss: string): string | undefined => {
  try {
    const url = new URL(iss);
    return url.origin === 'null' ? undefined : `${url.origin}/`;
  } catch {
    return undefined;
  }
};

export const tokenVerificationFaults = heldOutFamily([
  {
    id: 'ho33-alg-jsonwebtoken-rsa-default-algorithms',
    clause: 'auth.token.header',
    level: 'observed',
    bug: "An Express API that verifies with jsonwebtoken's jwt.verify(token, publicKeyPem) and no algorithms option, so the library's default for an RSA key (RS256, RS384, RS512, PS256, PS384, PS512) applies: a token signed with the tenant's key under alg RS384 (or RS512) is accepted instead of refused 401; alg HS256, and RS384 signed with another key, are still refused.",
    install: (app) =>
      alsoAccept(app, async (token, { keys }) => {
        const [headerPart, payloadPart, signature = ''] = token.split('.');
        const header = jsonObjectOf(headerPart);
        const digest = typeof header?.alg === 'string' ? RSA_DIGESTS.get(header.alg) : undefined;
        if (!header || digest === undefined || header.kid !== keys.kid || signature === '') return undefined;
        const ok = verifySignature(
          digest,
          Buffer.from(`${headerPart}.${payloadPart}`),
          keys.publicKey as never,
          Buffer.from(signature, 'base64url'),
        );
        return ok ? jsonObjectOf(payloadPart) : undefined;
      }),
  },
  {
    id: 'ho33-iss-nextjs-url-origin',
    clause: 'redeliver.errors.401.invalid-token',
    level: 'contract',
    bug: 'A Next.js middleware (middleware.ts) that checks the issuer with new URL(payload.iss).origin === new URL(ISSUER).origin, to tolerate a missing trailing slash, and an origin keeps only scheme, host and port: a correctly signed token whose iss is the tenant\'s host with a path ("https://<tenant host>/api/v2/", the audience taken for the issuer) is accepted instead of refused 401; iss "https://<another host>/" is still refused.',
    install: (app) =>
      forgiveClaim(app, (claims) => {
        if (typeof claims.iss !== 'string') return claims;
        const origin = originOf(claims.iss);
        return origin === undefined || origin === claims.iss ? claims : { ...claims, iss: origin };
      }),
  },
]);
