// How the bearer token is verified: the clock-skew setting read in minutes, an RS256 signature
// retried with PSS padding, and whitespace removed from inside the credential; and the observed
// rules: sub compared after Unicode NFKC normalisation, and a header without alg defaulted to
// RS256. Each lets exactly its near miss of a valid token through; a token wrong in any other way
// is refused as before.
import { KeyObject, constants, verify } from 'node:crypto';
import { observed, type OperationKey } from '../../../../specs/index.ts';
import { bearerToken, decodeJws } from '../../../auth/bearer.ts';
import { editRequests } from '../../support/route-edits.ts';
import { alsoAccept, forgiveClaim } from '../../support/verifier-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { rs256SignatureVerifies } from '../support/signatures.ts';

const SKEW_SECONDS = observed.tokens.clock_skew_seconds.value;
const SUFFIX = observed.tokens.subject_suffix;
const ALG = observed.tokens.alg;
const OPERATIONS: readonly OperationKey[] = ['redeliver', 'sso-ticket', 'vault'];
const COMPACT_JWS = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

/** Whether the token's signature is an RSASSA-PSS SHA-256 signature of its signing input by `key`. */
function pssSignatureVerifies(token: string, key: Parameters<typeof KeyObject.from>[0]): boolean {
  const [header, payload, signature] = token.split('.');
  if (header === undefined || payload === undefined || !signature) return false;
  try {
    return verify(
      'sha256',
      Buffer.from(`${header}.${payload}`),
      { key: KeyObject.from(key), padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: constants.RSA_PSS_SALTLEN_AUTO },
      Buffer.from(signature, 'base64url'),
    );
  } catch {
    return false;
  }
}

export const tokenVerificationFaults = heldOutFamily([
  {
    id: 'ho13-skew-setting-read-in-minutes',
    clause: 'redeliver.errors.401.invalid-token',
    level: 'contract',
    bug: `The clock-skew setting (CLOCK_SKEW=${SKEW_SECONDS}) passed to the verifier as \`\${value}m\`, the unit the operations team writes its other durations in, so exp is judged with ${SKEW_SECONDS} minutes of tolerance instead of ${SKEW_SECONDS} seconds: a token that expired 20 minutes ago is accepted by every operation instead of 401; one that expired 40 minutes ago is still refused.`,
    install: (app) =>
      forgiveClaim(app, (claims, { clock }) => {
        const { exp } = claims;
        if (typeof exp !== 'number') return claims;
        const now = clock.now();
        return now < exp * 1000 + SKEW_SECONDS * 60_000 ? { ...claims, exp: Math.ceil(now / 1000) + 60 } : claims;
      }),
  },
  {
    id: 'ho13-pss-padding-retried',
    clause: 'redeliver.errors.401.signature',
    level: 'contract',
    bug: `A verifier that, when the ${ALG} check fails, tries again with RSA-PSS padding (a fallback added while the issuer's keys were being moved to PSS, and never removed): a token whose header says ${ALG} but whose signature is PS256 over the same input with the tenant's key is accepted by every operation instead of 401; a PSS signature by another key, or one character of the signature changed, is still refused.`,
    install: (app) =>
      alsoAccept(app, async (token, { keys }) => {
        const decoded = decodeJws(token);
        if (!decoded || decoded.header.alg !== ALG) return undefined;
        const key = keys.publicKeyFor(typeof decoded.header.kid === 'string' ? decoded.header.kid : undefined);
        return key && pssSignatureVerifies(token, key) ? decoded.payload : undefined;
      }),
  },
  {
    id: 'ho13-credential-whitespace-removed',
    clause: 'auth.bearer.required',
    level: 'contract',
    bug: 'The credential cleaned with token.replace(/\\s+/g, "") before it is read, for tokens pasted from a terminal that wrapped them: "Bearer <header>.<pay load>.<signature>" (a space inside a segment) is accepted by every operation instead of 401; a token with a character changed is still refused.',
    install: (app) => {
      for (const key of OPERATIONS)
        editRequests(app, key, (exchange) => {
          const { authorization } = exchange.headers;
          const match = authorization === undefined ? null : /^Bearer +(.+)$/i.exec(authorization);
          if (!match || bearerToken(authorization) !== undefined) return exchange;
          const joined = match[1]!.replace(/\s+/g, '');
          return COMPACT_JWS.test(joined) ? { ...exchange, headers: { ...exchange.headers, authorization: `Bearer ${joined}` } } : exchange;
        });
    },
  },
  {
    id: 'ho13-subject-nfkc-compared',
    clause: 'auth.token.claims',
    level: 'observed',
    bug: `sub compared with <azp>${SUFFIX} after both are normalised with String.prototype.normalize("NFKC"), as the user directory compares names: a correctly signed token whose sub is "<azp>＠clients" (a fullwidth commercial at) or "<azp>@ｃｌｉｅｎｔｓ" is accepted by every operation instead of 401; sub "<azp>@client" is still refused.`,
    install: (app) =>
      forgiveClaim(app, (claims) =>
        typeof claims.sub === 'string' &&
        typeof claims.azp === 'string' &&
        claims.sub !== `${claims.azp}${SUFFIX}` &&
        claims.sub.normalize('NFKC') === `${claims.azp}${SUFFIX}`.normalize('NFKC')
          ? { ...claims, sub: `${claims.azp}${SUFFIX}` }
          : claims,
      ),
  },
  {
    id: 'ho13-missing-alg-defaulted',
    clause: 'auth.token.header',
    level: 'observed',
    bug: `A JOSE header without alg given the verifier's default (${ALG}, the one algorithm it allows) instead of being refused, as a library that reads header.alg ?? options.algorithms[0] does: a token whose header has only typ and kid, signed ${ALG} with the tenant's key, is accepted by every operation instead of 401; alg "none" or "HS256" is still refused.`,
    install: (app) =>
      alsoAccept(app, async (token, { keys }) => {
        const decoded = decodeJws(token);
        if (!decoded || 'alg' in decoded.header) return undefined;
        const key = keys.publicKeyFor(typeof decoded.header.kid === 'string' ? decoded.header.kid : undefined);
        return key && rs256SignatureVerifies(token, key) ? decoded.payload : undefined;
      }),
  },
]);
