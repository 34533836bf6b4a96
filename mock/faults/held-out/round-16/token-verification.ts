// How the bearer token is verified: the audiences of an OpenID Connect sample (the userinfo
// endpoint's among them), loopback issuers matched whatever their port, and an RS256 check written
// over publicDecrypt that compares only the digest at the end of the block; and the observed rules:
// a JWE's "zip" applied to a JWS payload, and the claims held to a strict schema that refuses a
// claim it does not list. Each changes the verdict on its near miss of a valid token; a token wrong
// in any other way is judged as before.
import { KeyObject, constants, createHash, publicDecrypt } from 'node:crypto';
import { inflateRawSync } from 'node:zlib';
import { audiencePath, observed } from '../../../../specs/index.ts';
import { audiencesOf, jsonObjectOf } from '../../../auth/bearer.ts';
import type { Verification } from '../../../auth/verifier.ts';
import { alsoAccept, editVerifier, forgiveClaim } from '../../support/verifier-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { rs256SignatureVerifies, signingInput, unverifiedParts } from '../support/signatures.ts';

const ALG = observed.tokens.alg;
/** An issuer of the mock as reached on a loopback address: scheme, host name and port. */
const LOOPBACK_ISSUER = /^(https?):\/\/(127\.0\.0\.1|localhost|\[::1\]):(\d{1,5})\/$/;
/** The claims the tenant's tokens carry, and the two other registered claims a verifier knows. */
const LISTED_CLAIMS = new Set(['iss', 'sub', 'aud', 'iat', 'exp', 'scope', 'gty', 'azp', 'nbf', 'jti']);

type Claims = Record<string, unknown>;

/** The verdict refused where the verified claims carry a member the list does not have. */
function strict(verification: Verification): Verification {
  if (!verification.ok) return verification;
  const extra = Object.keys(verification.principal.claims).find((name) => !LISTED_CLAIMS.has(name));
  return extra === undefined ? verification : { ok: false, error: 'invalid_token', reason: `the claims schema does not list ${extra}` };
}

export const tokenVerificationFaults = heldOutFamily([
  {
    id: 'ho16-userinfo-audience-accepted',
    clause: 'redeliver.errors.401.invalid-token',
    level: 'contract',
    bug: 'The verifier configured with the audiences of an OpenID Connect sample, the API\'s and the tenant\'s userinfo endpoint (audience: [API, "<issuer>userinfo"], as a token asked for with the openid scope carries both): a correctly signed token whose aud is only "<issuer>userinfo" is accepted by every operation instead of 401; an aud of "<issuer>profile" is still refused.',
    install: (app) =>
      forgiveClaim(app, (claims, { tenant }) => {
        const identity = typeof claims.iss === 'string' ? tenant.identityForIssuer(claims.iss) : undefined;
        return identity && audiencesOf(claims.aud).includes(`${identity.issuer}userinfo`) ? { ...claims, aud: identity.audience } : claims;
      }),
  },
  {
    id: 'ho16-loopback-issuer-any-port',
    clause: 'redeliver.errors.401.invalid-token',
    level: 'contract',
    bug: 'Issuers on a loopback address matched by scheme and host name with the port left out (a development convenience, the port changing from one run to the next): a correctly signed token whose iss is "http://127.0.0.1:<another port>/" and aud that origin\'s /api/v2/, a service on another port of the same machine, is accepted by every operation instead of 401; "http://10.0.0.1:<the mock\'s port>/" is still refused.',
    install: (app) =>
      forgiveClaim(app, (claims, { tenant }): Claims => {
        const { iss } = claims;
        const match = typeof iss === 'string' ? LOOPBACK_ISSUER.exec(iss) : null;
        if (!match || !audiencesOf(claims.aud).includes(`${match[1]}://${match[2]}:${match[3]}${audiencePath}`)) return claims;
        const { port } = new URL(tenant.identityReachedAt(undefined).issuer);
        if (port === match[3]) return claims;
        const own = `${match[1]}://${match[2]}:${port}`;
        return { ...claims, iss: `${own}/`, aud: `${own}${audiencePath}` };
      }),
  },
  {
    id: 'ho16-signature-digest-info-unchecked',
    clause: 'redeliver.errors.401.signature',
    level: 'contract',
    bug: `The ${ALG} check written by hand over crypto.publicDecrypt, which takes the PKCS#1 v1.5 padding off, and then compares only the last 32 bytes of the block with the SHA-256 of the signing input, the DigestInfo in front of them unchecked: a token whose signature is the tenant key's padding over the bare SHA-256 digest (no DigestInfo, as an HSM's "sign this digest" call gives it) is accepted by every operation instead of 401; a token whose signature is over the digest of other input is still refused.`,
    install: (app) =>
      alsoAccept(app, async (token, { keys }) => {
        const parts = unverifiedParts(token);
        const kid = parts?.header.kid;
        const key = parts && parts.header.alg === ALG && typeof kid === 'string' ? keys.publicKeyFor(kid) : undefined;
        const signature = token.split('.')[2];
        if (!parts || !key || !signature) return undefined;
        try {
          const block = publicDecrypt(
            { key: KeyObject.from(key), padding: constants.RSA_PKCS1_PADDING },
            Buffer.from(signature, 'base64url'),
          );
          const digest = createHash('sha256').update(signingInput(token)).digest();
          return block.length >= digest.length && block.subarray(block.length - digest.length).equals(digest) ? parts.claims : undefined;
        } catch {
          return undefined;
        }
      }),
  },
  {
    id: 'ho16-jws-payload-inflated',
    clause: 'auth.token.header',
    level: 'observed',
    bug: 'A JOSE layer that applies the "zip" header parameter to signed tokens too, where RFC 7516 defines it for JWE only: a token whose header carries "zip": "DEF" and whose payload segment is the DEFLATE of the claims, signed with the tenant\'s key, is inflated and accepted by every operation instead of 401; "zip": "GZIP" is still refused.',
    install: (app) =>
      alsoAccept(app, async (token, { keys }) => {
        const [headerSegment, payloadSegment] = token.split('.');
        const header = jsonObjectOf(headerSegment);
        if (!header || header.zip !== 'DEF' || header.alg !== ALG || typeof header.kid !== 'string' || !payloadSegment) return undefined;
        const key = keys.publicKeyFor(header.kid);
        if (!key || !rs256SignatureVerifies(token, key)) return undefined;
        try {
          const claims: unknown = JSON.parse(inflateRawSync(Buffer.from(payloadSegment, 'base64url')).toString('utf8'));
          return claims !== null && typeof claims === 'object' && !Array.isArray(claims) ? (claims as Claims) : undefined;
        } catch {
          return undefined;
        }
      }),
  },
  {
    id: 'ho16-claims-schema-strict',
    clause: 'auth.token.claims',
    level: 'observed',
    bug: `The verified claims parsed with a strict schema of the claims the tenant issues (zod's .strict(), written from one decoded token, plus nbf and jti), which refuses a member it does not list where RFC 7519 section 4 has unknown claims ignored: a correctly signed token carrying one more claim ("https://example.com/roles", or org_id) is refused 401 by every operation instead of accepted; the tenant's own tokens are accepted as before.`,
    install: (app) =>
      editVerifier(app, (verifier) => ({
        async verify(authorization, host) {
          return strict(await verifier.verify(authorization, host));
        },
        checkClaims(claims, host) {
          return strict(verifier.checkClaims(claims, host));
        },
      })),
  },
]);
