// How the management interface checks the bearer credential: the Authorization value read by its
// first word, the key taken from where a token says it is (jku) or from the only key whatever the
// kid, verified tokens cached past their expiry, the clock-skew leeway subtracted, the issuer's
// default port dropped, nbf ignored at one route, and azp taken from sub. Each lets exactly that
// near miss through (or refuses exactly that valid token); a token wrong in any other way is
// answered as before.
import type { CryptoKey, JWK } from 'jose';
import { importJWK } from 'jose';
import { observed } from '../../../../specs/index.ts';
import type { Verification } from '../../../auth/verifier.ts';
import { editRequests } from '../../support/route-edits.ts';
import { alsoAccept, editVerifier, forgiveClaim, forgiveClaimAt } from '../../support/verifier-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { rs256SignatureVerifies, unverifiedParts } from '../support/signatures.ts';

const ALG = observed.tokens.alg;
const SUFFIX = observed.tokens.subject_suffix;
const CLOCK_SKEW_MS = observed.tokens.clock_skew_seconds.value * 1000;

/** How long a key set named by a jku may take to arrive. */
const JKU_TIMEOUT_MS = 2_000;
/** How long the cache of verified Authorization values keeps an entry after its last use (a common cache setting). */
const VERIFIED_TTL_MS = 10 * 60 * 1000;
/** Entries the cache keeps, oldest dropped first. */
const VERIFIED_ENTRIES = 1_024;
/** The default port of https, which URL normalisation drops. */
const HTTPS_DEFAULT_PORT = /^(https:\/\/[^/:]+):443(\/.*)$/;
/** A Bearer credential followed by more words. */
const BEARER_AND_MORE = /^(Bearer) +(\S+)\s+\S.*$/i;

export const tokenVerificationFaults = heldOutFamily([
  {
    id: 'ho2-token-key-fetched-from-jku',
    clause: 'redeliver.errors.401.signature',
    level: 'contract',
    bug: "A verifier that, when a token's header names a jku, fetches the key set from that URL (no allow-list) and checks the signature with the key it finds there: a token signed with any key, whose jku points at a key set holding it, is accepted by every operation; a foreign-signed token without jku is still refused.",
    install: (app) =>
      alsoAccept(app, async (token) => {
        const parts = unverifiedParts(token);
        const jku = parts?.header.jku;
        if (!parts || parts.header.alg !== ALG || typeof jku !== 'string' || !/^https?:\/\//.test(jku)) return undefined;
        try {
          const response = await fetch(jku, { signal: AbortSignal.timeout(JKU_TIMEOUT_MS) });
          const set = (await response.json()) as { keys?: unknown };
          const keys = (Array.isArray(set.keys) ? set.keys : []) as JWK[];
          const jwk = keys.find((candidate) => candidate.kid === parts.header.kid) ?? keys[0];
          if (!jwk) return undefined;
          const key = (await importJWK(jwk, ALG)) as CryptoKey;
          return rs256SignatureVerifies(token, key) ? parts.claims : undefined;
        } catch {
          return undefined;
        }
      }),
  },
  {
    id: 'ho2-kid-ignored-with-one-key',
    clause: 'auth.token.header',
    level: 'observed',
    bug: "A verifier that, while the tenant has a single signing key, verifies with it whatever the token's kid says: a token signed with the tenant's key under a kid no published key has, or with no kid at all, is accepted by every operation (a token signed with another key is still refused).",
    install: (app) =>
      alsoAccept(app, async (token, { keys }) => {
        const parts = unverifiedParts(token);
        if (!parts || parts.header.alg !== ALG || parts.header.kid === keys.kid || keys.jwks.keys.length !== 1) return undefined;
        return rs256SignatureVerifies(token, keys.publicKey) ? parts.claims : undefined;
      }),
  },
  {
    id: 'ho2-redeliver-bearer-first-word',
    clause: 'redeliver.errors.401.invalid-token',
    level: 'contract',
    bug: 'Redelivery\'s credential parser takes the word after "Bearer" and drops the rest (split(" ")[1]): an Authorization value of a valid token followed by a space and more text ("Bearer <token> x"), which is no bearer credential (RFC 6750 section 2.1), is accepted there; the other operations refuse it with 401.',
    install: (app) =>
      editRequests(app, 'redeliver', (exchange) => {
        const match = BEARER_AND_MORE.exec(exchange.headers.authorization ?? '');
        return match ? { ...exchange, headers: { ...exchange.headers, authorization: `${match[1]} ${match[2]}` } } : exchange;
      }),
  },
  {
    id: 'ho2-verified-tokens-cached-past-expiry',
    clause: 'redeliver.errors.401.invalid-token',
    level: 'contract',
    bug: `Verified Authorization values cached for ${VERIFIED_TTL_MS / 60_000} minutes after their last use, whatever their exp: a token used while valid stays accepted by every operation for up to ${VERIFIED_TTL_MS / 60_000} minutes after it expires; an expired token the service has not seen before is still refused.`,
    install: (app) =>
      editVerifier(app, (verifier, { clock }) => {
        const cache = new Map<string, { verification: Verification; at: number }>();
        return {
          ...verifier,
          async verify(authorization, host) {
            const verification = await verifier.verify(authorization, host);
            if (authorization === undefined) return verification;
            if (verification.ok) {
              cache.delete(authorization);
              if (cache.size >= VERIFIED_ENTRIES) cache.delete(cache.keys().next().value!);
              cache.set(authorization, { verification, at: clock.now() });
              return verification;
            }
            const cached = verification.error === 'expired_token' ? cache.get(authorization) : undefined;
            return cached && clock.now() - cached.at < VERIFIED_TTL_MS ? cached.verification : verification;
          },
        };
      }),
  },
  {
    id: 'ho2-expiry-leeway-subtracted',
    clause: 'auth.schemes',
    level: 'contract',
    bug: `The clock-skew leeway subtracted from exp where it should be added ("now >= exp - leeway"): a valid token is refused with 401 "Expired token" by every operation in the last ${CLOCK_SKEW_MS / 1000} seconds before it expires; earlier in its life it is accepted.`,
    install: (app) =>
      editVerifier(app, (verifier, { clock }) => {
        const early = (verification: Verification): Verification => {
          if (!verification.ok) return verification;
          const { exp } = verification.principal.claims;
          return typeof exp === 'number' && clock.now() >= exp * 1000 - CLOCK_SKEW_MS
            ? { ok: false, error: 'expired_token', reason: 'exp is within the leeway' }
            : verification;
        };
        return {
          async verify(authorization, host) {
            return early(await verifier.verify(authorization, host));
          },
          checkClaims: (claims, host) => early(verifier.checkClaims(claims, host)),
        };
      }),
  },
  {
    id: 'ho2-issuer-default-port-dropped',
    clause: 'redeliver.errors.401.invalid-token',
    level: 'contract',
    bug: "Issuers normalised as URLs before they are compared, the scheme's default port dropped: a correctly signed token whose iss is the tenant's issuer with :443 after the host (another string, RFC 7519 section 4.1.1) is accepted by every operation; another port is still refused.",
    install: (app) =>
      forgiveClaim(app, (claims, { tenant }) => {
        const match = typeof claims.iss === 'string' ? HTTPS_DEFAULT_PORT.exec(claims.iss) : null;
        if (!match) return claims;
        const iss = `${match[1]}${match[2]}`;
        return tenant.identityForIssuer(iss) ? { ...claims, iss } : claims;
      }),
  },
  {
    id: 'ho2-ticket-nbf-ignored-when-iat-present',
    clause: 'auth.bearer.required',
    level: 'contract',
    bug: "Ticket creation's own token check reads iat as the start of validity and looks at nbf only when there is no iat: a correctly signed token issued now but not valid before an hour from now (nbf ahead) is accepted there; the other operations refuse it with 401, and a token with iat ahead is still refused.",
    install: (app) =>
      forgiveClaimAt(app, 'sso-ticket', (claims, { clock }) => {
        const { nbf, iat, ...rest } = claims;
        const now = clock.now();
        return typeof iat === 'number' && typeof nbf === 'number' && iat * 1000 <= now + CLOCK_SKEW_MS && nbf * 1000 > now
          ? { ...rest, iat }
          : claims;
      }),
  },
  {
    id: 'ho2-client-named-by-sub-without-azp',
    clause: 'auth.token.claims',
    level: 'observed',
    bug: `A verifier that takes the client from sub when a token has no azp ("azp ?? sub without ${SUFFIX}"): a correctly signed token of the tenant without azp, which the service never issues, is accepted by every operation as its sub's client (a token whose azp and sub disagree is still refused).`,
    install: (app) =>
      forgiveClaim(app, (claims) =>
        claims.azp === undefined && typeof claims.sub === 'string' && claims.sub.endsWith(SUFFIX)
          ? { ...claims, azp: claims.sub.slice(0, -SUFFIX.length) }
          : claims,
      ),
  },
]);
