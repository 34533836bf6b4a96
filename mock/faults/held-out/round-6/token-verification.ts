// How the bearer token is read and verified: an alg taken from the key when the header has none, an
// audience list flattened, expiry worked out from iat and the
// default lifetime, an issuer whose path is normalised, a credential percent-decoded, and a
// signature one byte short padded back to the key's size. Each lets exactly that near miss of a
// valid token through; a token wrong in any other way is refused as before.
import { observed } from '../../../../specs/index.ts';
import { alsoAccept, forgiveClaim, signedPayload } from '../../support/verifier-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { alsoReadAs, bearerCredential } from '../round-4/support/credential-rereads.ts';
import { rs256SignatureVerifies, unverifiedParts } from '../support/signatures.ts';
import { segmentsOf } from '../round-5/support/token-text.ts';
import { leftPadded, withNormalisedPath } from './support/claims-path.ts';

const ALG = observed.tokens.alg;
const LIFETIME_SECONDS = observed.tokens.expires_in;
const CLOCK_SKEW_MS = observed.tokens.clock_skew_seconds.value * 1000;
/** An RSA-2048 signature's size in bytes. */
const SIGNATURE_BYTES = 256;

export const tokenVerificationFaults = heldOutFamily([
  {
    id: 'ho6-alg-taken-from-jwk',
    clause: 'redeliver.errors.401.invalid-token',
    level: 'contract',
    bug: `The verifier takes the algorithm from the JWKS entry the kid names when the JOSE header has none ("header.alg ?? jwk.alg"): a token whose header has no alg at all, signed ${ALG} with the tenant's key, is accepted by every operation instead of 401; a token whose header says alg "none" is still refused.`,
    install: (app) =>
      alsoAccept(app, async (token, { keys }) => {
        const parts = unverifiedParts(token);
        if (!parts || 'alg' in parts.header || parts.header.kid !== keys.kid) return undefined;
        return rs256SignatureVerifies(token, keys.publicKey) ? parts.claims : undefined;
      }),
  },
  {
    id: 'ho6-audience-list-flattened',
    clause: 'redeliver.errors.401.invalid-token',
    level: 'contract',
    bug: 'The audience check reads aud through aud.flat(Infinity), written for a gateway that wraps claims in lists: a correctly signed token whose aud is a list holding a list holding the management audience ([["https://<tenant>/api/v2/"]]), which names no audience, is accepted by every operation instead of 401; the same nesting around another audience is still refused.',
    install: (app) =>
      forgiveClaim(app, (claims) => {
        const { aud } = claims;
        return Array.isArray(aud) && aud.some(Array.isArray) ? { ...claims, aud: (aud as unknown[]).flat(Infinity) } : claims;
      }),
  },
  {
    id: 'ho6-expiry-from-iat-and-lifetime',
    clause: 'redeliver.errors.401.invalid-token',
    level: 'contract',
    bug: `Expiry worked out as iat + the default token lifetime (${LIFETIME_SECONDS} s) wherever iat is present, exp being read only without iat: a correctly signed token issued minutes ago whose own exp has already passed is accepted by every operation instead of 401; a token issued two days ago whose exp has passed is still refused.`,
    install: (app) =>
      forgiveClaim(app, (claims, { clock }) => {
        const { iat, exp } = claims;
        if (typeof iat !== 'number' || typeof exp !== 'number' || exp * 1000 + CLOCK_SKEW_MS > clock.now()) return claims;
        return (iat + LIFETIME_SECONDS) * 1000 > clock.now() ? { ...claims, exp: iat + LIFETIME_SECONDS } : claims;
      }),
  },
  {
    id: 'ho6-issuer-path-normalised',
    clause: 'redeliver.errors.401.invalid-token',
    level: 'contract',
    bug: 'The issuer compared after its path is passed through path.posix.normalize (meant to tidy configured URLs): a correctly signed token whose iss is the tenant\'s issuer with a dot segment ("https://<tenant>/./"), which is no issuer of the tenant, is accepted by every operation instead of 401; a token from another host is still refused.',
    install: (app) =>
      forgiveClaim(app, (claims) => {
        const iss = typeof claims.iss === 'string' ? withNormalisedPath(claims.iss) : undefined;
        return iss === undefined ? claims : { ...claims, iss };
      }),
  },
  {
    id: 'ho6-credential-percent-decoded',
    clause: 'auth.bearer.required',
    level: 'contract',
    bug: 'The bearer credential passed through decodeURIComponent (for tokens copied out of a callback URL): "Bearer " followed by a valid token whose dots are written %2E, which is no compact JWS, is accepted by every operation instead of 401; the same encoding of a token with a broken signature is still refused.',
    install: (app) =>
      alsoReadAs(app, (authorization) => {
        const credential = bearerCredential(authorization);
        if (credential === undefined || !credential.includes('%')) return undefined;
        try {
          return `Bearer ${decodeURIComponent(credential)}`;
        } catch {
          return undefined;
        }
      }),
  },
  {
    id: 'ho6-signature-left-padded',
    clause: 'redeliver.errors.401.signature',
    level: 'contract',
    bug: `A hand-rolled RSA check that left-pads a short signature with zero bytes to the key's size (${SIGNATURE_BYTES} bytes), as big-integer code that dropped a leading zero does: a valid token whose signature begins with a zero byte, sent with that byte left out (${SIGNATURE_BYTES - 1} bytes, an invalid JWS signature), is accepted by every operation instead of 401; a signature with its last byte left out is still refused.`,
    install: (app) =>
      alsoAccept(app, async (token, { keys }) => {
        const segments = segmentsOf(token);
        const padded = segments && leftPadded(segments.signature, SIGNATURE_BYTES);
        if (!segments || padded === undefined) return undefined;
        const repaired = `${segments.header}.${segments.payload}.${padded}`;
        return rs256SignatureVerifies(repaired, keys.publicKey) ? signedPayload(repaired, keys) : undefined;
      }),
  },
]);
