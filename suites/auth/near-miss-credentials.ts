// Credentials a conforming target must refuse that are almost right: the closest wrong value of
// each check of a token. Most are the target's own token re-signed with its own key and wrong in
// one claim by the smallest amount a verifier could forgive (expired two minutes ago, an issuer
// without its trailing slash, an audience in capitals), so they need the signing key and are not
// applicable to a real tenant, whose far cases (expired a day ago, another API, another tenant)
// are in credentials.ts. Issuers and audiences are compared as exact strings (RFC 7519 sections
// 4.1.1 and 4.1.3), so letter case and slashes count.
import type { JWTPayload } from 'jose';
import { observed } from '../../specs/index.ts';
import { resigned, type BadCredential } from './credentials.ts';

/**
 * Two minutes: four times the clock skew the mock allows (observed.tokens.clock_skew_seconds),
 * within the five minutes some JWT libraries allow by default.
 */
const NEAR_MISS_SECONDS = 4 * observed.tokens.clock_skew_seconds.value;
/** A lifetime for tokens made near their edge of validity (the far end stays out of the way). */
const HOUR = 3600;

/** The smallest changes to a URL claim (iss, aud) that a lenient comparison forgives. */
export const urlNearMisses: Array<{ what: string; change: (url: string) => string }> = [
  { what: 'without its trailing slash', change: (url) => (url.endsWith('/') ? url.slice(0, -1) : `${url}/`) },
  { what: 'with a path segment added', change: (url) => `${url.endsWith('/') ? url : `${url}/`}other/` },
  { what: 'with its host name prefixed', change: (url) => url.replace('://', '://other-') },
  { what: 'in capitals', change: (url) => url.toUpperCase() },
];

function audienceOf(claims: JWTPayload): string {
  return String(Array.isArray(claims.aud) ? claims.aud[0] : claims.aud);
}

export const nearMissCredentials: BadCredential[] = [
  resigned(`a token expired ${NEAR_MISS_SECONDS} seconds ago`, (claims, now) => ({
    ...claims,
    iat: now - NEAR_MISS_SECONDS - HOUR,
    exp: now - NEAR_MISS_SECONDS,
  })),
  resigned(`a token valid only ${NEAR_MISS_SECONDS} seconds from now`, (claims, now) => ({
    ...claims,
    iat: now + NEAR_MISS_SECONDS,
    nbf: now + NEAR_MISS_SECONDS,
    exp: now + NEAR_MISS_SECONDS + HOUR,
  })),
  ...urlNearMisses.map(({ what, change }) =>
    resigned(`a token whose issuer is the target's ${what}`, (claims) => ({ ...claims, iss: change(String(claims.iss)) })),
  ),
  ...urlNearMisses.map(({ what, change }) =>
    resigned(`a token whose audience is the target's ${what}`, (claims) => ({ ...claims, aud: change(audienceOf(claims)) })),
  ),
  {
    name: 'a token signed with a foreign key it carries in its own header (jwk)',
    signature: true,
    make: async (t) => ({ token: await t.forge.signedWithEmbeddedKey(await t.tokenFor('global')) }),
  },
];
