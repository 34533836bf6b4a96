// How the bearer token is read and verified: a skew setting read from the environment and
// concatenated as text, a JWS in its JSON serialisation taken for a bearer token, and nbf compared
// with the token's own iat instead of the clock; and the observed rules: exp given as a list of one
// number coerced by arithmetic, and the subject's suffix taken off with replace(). Each lets exactly
// that near miss of a valid token through; a token wrong in any other way is refused as before.
import { observed } from '../../../../specs/index.ts';
import { alsoReadAs, bearerCredential } from '../round-4/support/credential-rereads.ts';
import { forgiveClaim } from '../../support/verifier-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';

const SUFFIX = observed.tokens.subject_suffix;
/** The skew as the environment holds it: text, in milliseconds. */
const SKEW_SETTING = String(observed.tokens.clock_skew_seconds.value * 1000);
const SKEW_MS = observed.tokens.clock_skew_seconds.value * 1000;
/** A validity far enough ahead for a repaired claim never to be the reason of a refusal. */
const AN_HOUR = 3600;

/** The compact form of a flattened JSON JWS credential ({"protected", "payload", "signature"}), or undefined. */
function compactOfJsonJws(credential: string): string | undefined {
  let value: unknown;
  try {
    value = JSON.parse(credential);
  } catch {
    return undefined;
  }
  if (value === null || typeof value !== 'object') return undefined;
  const { protected: header, payload, signature } = value as Record<string, unknown>;
  return typeof header === 'string' && typeof payload === 'string' && typeof signature === 'string'
    ? `${header}.${payload}.${signature}`
    : undefined;
}

export const tokenVerificationFaults = heldOutFamily([
  {
    id: 'ho10-skew-setting-concatenated',
    clause: 'redeliver.errors.401.invalid-token',
    level: 'contract',
    bug: `exp checked as now >= exp * 1000 + process.env.CLOCK_SKEW_MS, the setting ("${SKEW_SETTING}") a string, so + concatenates its digits onto exp's milliseconds and the bound lies millions of years ahead: a correctly signed token that expired an hour (or a year) ago is accepted by every operation instead of 401; a token without exp, or with a tampered signature, is still refused.`,
    install: (app) =>
      forgiveClaim(app, (claims, { clock }) => {
        const { exp } = claims;
        if (typeof exp !== 'number' || clock.now() < exp * 1000 + SKEW_MS) return claims;
        return clock.now() < Number(`${exp * 1000}${SKEW_SETTING}`) ? { ...claims, exp: Math.floor(clock.now() / 1000) + AN_HOUR } : claims;
      }),
  },
  {
    id: 'ho10-json-serialised-jws-accepted',
    clause: 'auth.bearer.required',
    level: 'contract',
    bug: 'The credential handed to a general JWS verifier (flattenedVerify after JSON.parse) whenever it is not a compact JWS, as for signed webhooks: "Bearer {"protected":…,"payload":…,"signature":…}", a valid token in the JSON serialisation, which is no bearer JWT (RFC 7519 uses the compact form), is accepted by every operation instead of 401; the same JSON with a tampered signature is still refused.',
    install: (app) =>
      alsoReadAs(app, (authorization) => {
        const credential = bearerCredential(authorization);
        const compact = credential === undefined ? undefined : compactOfJsonJws(credential);
        return compact === undefined ? undefined : `Bearer ${compact}`;
      }),
  },
  {
    id: 'ho10-nbf-compared-with-iat',
    clause: 'redeliver.errors.401.invalid-token',
    level: 'contract',
    bug: 'nbf compared with the token\'s own iat (if (iat !== undefined && nbf > iat) refuse, "not valid before it was issued") instead of with the clock: a correctly signed token whose nbf is ten minutes ahead and that has no iat is accepted by every operation instead of 401; the same token with an iat of now is still refused.',
    install: (app) =>
      forgiveClaim(app, (claims, { clock }) => {
        const { nbf, iat } = claims;
        if (typeof nbf !== 'number' || clock.now() >= nbf * 1000 - SKEW_MS) return claims;
        if (iat !== undefined && (typeof iat !== 'number' || nbf > iat)) return claims;
        const { nbf: _compared, ...rest } = claims;
        return rest;
      }),
  },
  {
    id: 'ho10-exp-list-of-one-coerced',
    clause: 'auth.token.claims',
    level: 'observed',
    bug: 'exp checked as exp != null && exp * 1000 > now, without asking whether it is a number: arithmetic turns a list of one number into that number, so a correctly signed token whose exp is [<an hour ahead>] is accepted by every operation instead of 401; an exp of "soon" (NaN) or [<an hour ago>] is still refused.',
    install: (app) =>
      forgiveClaim(app, (claims) => {
        const { exp } = claims;
        return Array.isArray(exp) && exp.length === 1 && Number.isFinite(Number(exp[0])) ? { ...claims, exp: Number(exp[0]) } : claims;
      }),
  },
  {
    id: 'ho10-sub-suffix-removed-by-replace',
    clause: 'auth.token.claims',
    level: 'observed',
    bug: `sub compared with azp as sub.replace("${SUFFIX}", "") === azp, where replace() takes the first "${SUFFIX}" wherever it is: a correctly signed token whose sub is "${SUFFIX}<azp>" is accepted by every operation instead of 401; a sub "<azp>@users" is still refused.`,
    install: (app) =>
      forgiveClaim(app, (claims) => {
        const { sub, azp } = claims;
        if (typeof sub !== 'string' || typeof azp !== 'string' || sub === `${azp}${SUFFIX}`) return claims;
        return sub.includes(SUFFIX) && sub.replace(SUFFIX, '') === azp ? { ...claims, sub: `${azp}${SUFFIX}` } : claims;
      }),
  },
]);
