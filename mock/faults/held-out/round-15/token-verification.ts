// How the bearer token is verified: the clock tolerance applied twice, the credential unquoted as
// an RFC 7235 quoted-string, the issuer compared after WHATWG URL serialisation, and an RS256
// header's signature also checked with SHA-1; and the observed rule: iat judged only by a maxAge
// option. Each lets exactly its near miss of a valid token through; a token wrong in any other way
// is refused as before.
import { KeyObject, verify } from 'node:crypto';
import { observed } from '../../../../specs/index.ts';
import type { OperationKey } from '../../../../specs/index.ts';
import { editRequests } from '../../support/route-edits.ts';
import { alsoAccept, forgiveClaim } from '../../support/verifier-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { signingInput, unverifiedParts } from '../support/signatures.ts';

const SKEW_SECONDS = observed.tokens.clock_skew_seconds.value;
const OPERATIONS: readonly OperationKey[] = ['redeliver', 'sso-ticket', 'vault'];
/** A bearer credential written as an RFC 7235 quoted-string. */
const QUOTED = /^Bearer "([^"\s]+)"$/;

export const tokenVerificationFaults = heldOutFamily([
  {
    id: 'ho15-clock-tolerance-applied-twice',
    clause: 'redeliver.errors.401.invalid-token',
    level: 'contract',
    bug: `The ${SKEW_SECONDS}-second clock tolerance given to the JWT library (clockTolerance) and added again by hand in the service's own expiry check (exp + skew >= now - skew), so an expired token is forgiven for twice the tolerance: a token that expired 45 seconds ago is accepted by every operation instead of 401; one that expired 90 seconds ago is still refused.`,
    install: (app) =>
      forgiveClaim(app, (claims, { clock }) => {
        const { exp } = claims;
        if (typeof exp !== 'number') return claims;
        const now = clock.now();
        const expired = now - exp * 1000;
        return expired >= SKEW_SECONDS * 1000 && expired < 2 * SKEW_SECONDS * 1000
          ? { ...claims, exp: Math.ceil(now / 1000) + 60 }
          : claims;
      }),
  },
  {
    id: 'ho15-bearer-credential-unquoted',
    clause: 'auth.bearer.required',
    level: 'contract',
    bug: 'The Authorization header parsed by a generic RFC 7235 auth-param parser that unquotes a quoted-string, where RFC 6750\'s b64token has no quotes: Authorization: Bearer "<valid token>" is served by every operation instead of 401; Bearer "<a token with a character changed>" is still refused.',
    install: (app) => {
      for (const key of OPERATIONS)
        editRequests(app, key, (exchange) => {
          const match = QUOTED.exec(exchange.headers.authorization ?? '');
          return match ? { ...exchange, headers: { ...exchange.headers, authorization: `Bearer ${match[1]}` } } : exchange;
        });
    },
  },
  {
    id: 'ho15-iat-judged-by-max-age-only',
    clause: 'auth.token.claims',
    level: 'observed',
    bug: 'iat checked only through the JWT library\'s maxAge option (now - iat <= 24 h), which a time in the future always passes, the service\'s own "iat in the future" check having been removed as redundant: a correctly signed token whose iat is an hour ahead is accepted by every operation instead of 401; an iat that is not a number is still refused.',
    install: (app) =>
      forgiveClaim(app, (claims, { clock }) =>
        typeof claims.iat === 'number' && claims.iat * 1000 > clock.now() ? { ...claims, iat: Math.floor(clock.now() / 1000) } : claims,
      ),
  },
  {
    id: 'ho15-issuer-compared-as-serialised-url',
    clause: 'redeliver.errors.401.invalid-token',
    level: 'contract',
    bug: 'iss compared after new URL(iss).href, a WHATWG serialisation that lower-cases the scheme and the host (written to tolerate a trailing-slash variant): a correctly signed token whose iss is the tenant\'s issuer with its scheme in capitals ("HTTP://..." or "HTTPS://...") is accepted by every operation instead of 401; an iss with one letter of its path changed is still refused.',
    install: (app) =>
      forgiveClaim(app, (claims) => {
        const { iss } = claims;
        if (typeof iss !== 'string' || !URL.canParse(iss)) return claims;
        const href = new URL(iss).href;
        return href === iss ? claims : { ...claims, iss: href };
      }),
  },
  {
    id: 'ho15-signature-sha1-fallback',
    clause: 'redeliver.errors.401.signature',
    level: 'contract',
    bug: "A verifier kept compatible with tokens of a retired signer by trying RSASSA-PKCS1-v1_5 with SHA-1 when the SHA-256 check fails, whatever the header says: a token whose header says RS256 but whose signature is RSA-SHA1 by the tenant's key is accepted by every operation instead of 401; a token with a character of its signature changed is still refused.",
    install: (app) =>
      alsoAccept(app, async (token, { keys }) => {
        const parts = unverifiedParts(token);
        const kid = parts?.header.kid;
        const key = parts && parts.header.alg === 'RS256' && typeof kid === 'string' ? keys.publicKeyFor(kid) : undefined;
        const signature = token.split('.')[2];
        if (!parts || !key || !signature) return undefined;
        try {
          return verify('sha1', Buffer.from(signingInput(token)), KeyObject.from(key), Buffer.from(signature, 'base64url'))
            ? parts.claims
            : undefined;
        } catch {
          return undefined;
        }
      }),
  },
]);
