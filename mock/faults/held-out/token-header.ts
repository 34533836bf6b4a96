// The JOSE header and the signature of access tokens: a verifier that reads alg, crit or x5c its
// own way, a cache that remembers the wrong part of a verified token, and an issuer whose typ or
// kid differ from what the real service writes. Each accepts or issues one near miss; a token
// wrong in any other way is still refused.
import { X509Certificate } from 'node:crypto';
import { SignJWT, decodeJwt } from 'jose';
import { observed } from '../../../specs/index.ts';
import type { FaultHooks } from '../../app.ts';
import { bearerToken } from '../../auth/bearer.ts';
import { alsoAccept, editVerifier } from '../support/verifier-edits.ts';
import { heldOutFamily } from './held-out-fault.ts';
import { rs256SignatureVerifies, signingInput, unverifiedParts } from './support/signatures.ts';

const ALG = observed.tokens.alg;

/** The type a token's header names under RFC 9068 (JWT profile for access tokens). */
const RFC_9068_TYP = 'at+jwt';

/** Re-signs every issued token with a header `edit` makes from the one the issuer wrote. */
function reissueWithHeader(app: FaultHooks, edit: (kid: string) => Record<string, string>): void {
  app.override('issuer', (issuer, built) => ({
    async issue(client, scopes, target) {
      const issued = await issuer.issue(client, scopes, target);
      const keys = built.keys!;
      const accessToken = await new SignJWT(decodeJwt(issued.accessToken))
        .setProtectedHeader({ alg: ALG, ...edit(keys.kid) })
        .sign(keys.privateKey);
      return { ...issued, accessToken };
    },
  }));
}

export const tokenHeaderFaults = heldOutFamily([
  {
    id: 'ho-crit-header-ignored',
    clause: 'redeliver.errors.401.invalid-token',
    level: 'contract',
    bug: 'A verifier that never reads crit (RFC 7515 section 4.1.11: a token naming a critical extension the recipient does not understand must be refused): a correctly signed token whose crit lists an unknown extension is accepted by every operation; one with a bad signature or claim is still refused.',
    install: (app) =>
      alsoAccept(app, async (token, { keys }) => {
        const parts = unverifiedParts(token);
        if (!parts || !Array.isArray(parts.header.crit) || parts.header.alg !== ALG || parts.header.kid !== keys.kid) return undefined;
        return rs256SignatureVerifies(token, keys.publicKey) ? parts.claims : undefined;
      }),
  },
  {
    id: 'ho-alg-name-ignoring-case',
    clause: 'redeliver.errors.401.invalid-token',
    level: 'contract',
    bug: 'A verifier that upper-cases alg before it looks the algorithm up: a token whose header says "rs256" (no such algorithm: names are case-sensitive, RFC 7515 section 4.1.1) and whose RS256 signature verifies is accepted by every operation.',
    install: (app) =>
      alsoAccept(app, async (token, { keys }) => {
        const parts = unverifiedParts(token);
        const alg = parts?.header.alg;
        if (!parts || typeof alg !== 'string' || alg === ALG || alg.toUpperCase() !== ALG || parts.header.kid !== keys.kid)
          return undefined;
        return rs256SignatureVerifies(token, keys.publicKey) ? parts.claims : undefined;
      }),
  },
  {
    id: 'ho-verified-cache-keyed-by-signed-part',
    clause: 'redeliver.errors.401.signature',
    level: 'contract',
    bug: 'A cache of verified tokens keyed by their header and payload, to save an RSA verification per request: once a token has been accepted, the same header and payload under any other signature (one character changed, or none) are accepted by every operation; a token never seen before is still verified.',
    install: (app) =>
      editVerifier(app, (verifier) => {
        const verified = new Set<string>();
        return {
          ...verifier,
          async verify(authorization, host) {
            const verification = await verifier.verify(authorization, host);
            const token = bearerToken(authorization);
            if (token === undefined) return verification;
            if (verification.ok) {
              verified.add(signingInput(token));
              return verification;
            }
            const parts = verified.has(signingInput(token)) ? unverifiedParts(token) : undefined;
            return parts ? verifier.checkClaims(parts.claims, host) : verification;
          },
        };
      }),
  },
  {
    id: 'ho-trusts-x5c-header',
    clause: 'redeliver.errors.401.signature',
    level: 'contract',
    bug: "A verifier that takes the certificate a token carries in its x5c header as the key to check it with, without matching it to the tenant's keys (the jwk-header mistake, CVE-2018-0114, made with x5c): a token signed with any key whose certificate it carries is accepted by every operation.",
    install: (app) =>
      alsoAccept(app, async (token) => {
        const parts = unverifiedParts(token);
        const chain = parts?.header.x5c;
        if (!parts || !Array.isArray(chain) || typeof chain[0] !== 'string') return undefined;
        try {
          const key = new X509Certificate(Buffer.from(chain[0], 'base64')).publicKey;
          return rs256SignatureVerifies(token, key) ? parts.claims : undefined;
        } catch {
          return undefined;
        }
      }),
  },
  {
    id: 'ho-issued-typ-at-jwt',
    clause: 'token.observed.claims',
    level: 'observed',
    bug: `A token issuer upgraded to the JWT profile for access tokens (RFC 9068): issued tokens have typ "${RFC_9068_TYP}" in their header instead of the real service's "${observed.tokens.typ}" (the service still accepts them).`,
    install: (app) => reissueWithHeader(app, (kid) => ({ typ: RFC_9068_TYP, kid })),
  },
  {
    id: 'ho-issued-kid-in-upper-case',
    clause: 'token.observed.jwks',
    level: 'observed',
    bug: 'A key store that treats key ids as case-insensitive names and upper-cases them when the signer loads its key, while the JWKS publishes them as computed: issued tokens carry a kid no published key has, so a client that picks the JWKS key by kid cannot verify them (the service looks kids up ignoring case and accepts them).',
    install: (app) =>
      app.override('keys', (keys) => {
        const kid = keys.kid.toUpperCase();
        return { ...keys, kid, publicKeyFor: (wanted) => (wanted?.toUpperCase() === kid ? keys.publicKey : undefined) };
      }),
  },
]);
