// What the credential of a recorded request was, read from the request alone: none, a header no
// verifier can read, a token that is invalid by what it says (not a JWT, unsigned, expired, not
// yet valid, for another audience or issuer), or a token that may be valid. The signature is never
// checked (the recording has no key to check it with): "plausible" means nothing the token says
// makes it invalid.
import { REDACTED } from '../harness/redact.ts';
import { bearerTokenOf, type DecodedToken } from '../harness/exchange-record.ts';
import { observed } from '../specs/index.ts';
import type { Identity } from './context.ts';

export type CredentialState =
  | { kind: 'missing' }
  | { kind: 'unreadable'; why: string }
  /** Redacted in the recording and not kept decoded: nothing can be said of it. */
  | { kind: 'unknown' }
  | { kind: 'invalid'; why: string; signature: boolean; token?: DecodedToken }
  | { kind: 'plausible'; token: DecodedToken; scopes: string[] };

/**
 * How far past exp (or before nbf and iat) a token must be for its refusal to be required: four
 * times the clock skew the mock allows (observed.tokens.clock_skew_seconds), as the suite's
 * near-miss tokens are, within the five minutes some verifiers allow, past any careful one's.
 */
export const CLEARLY_OUTSIDE_SECONDS = 4 * observed.tokens.clock_skew_seconds.value;

/** `recorded`: what the recording kept of the tokens (decoded, or that the bearer value was not a JWT). */
export function credentialOf(
  headers: Record<string, string>,
  recorded: { sent?: DecodedToken; sentNotJwt?: true } | undefined,
  atSeconds: number,
  identities: Identity[],
): CredentialState {
  const decoded = recorded?.sent;
  const authorization = headers.authorization;
  if (authorization === undefined) return { kind: 'missing' };
  const raw = bearerTokenOf(headers);
  if (raw === undefined) {
    return authorization.includes(REDACTED)
      ? { kind: 'unknown' }
      : { kind: 'unreadable', why: 'an Authorization header not of the form "Bearer <token>"' };
  }
  if (!decoded) {
    const notJwt = recorded?.sentNotJwt === true || !raw.includes(REDACTED);
    return notJwt ? { kind: 'invalid', why: 'a bearer value that is not a JWT', signature: false } : { kind: 'unknown' };
  }
  return judgedToken(decoded, atSeconds, identities);
}

function judgedToken(token: DecodedToken, now: number, identities: Identity[]): CredentialState {
  const invalid = (why: string, signature = false): CredentialState => ({ kind: 'invalid', why, signature, token });
  const { exp, nbf, iat, aud, iss, scope } = token.claims;
  if (!token.signed || String(token.header.alg).toLowerCase() === 'none') return invalid('an unsigned token (alg none)', true);
  if (typeof exp === 'number' && exp + CLEARLY_OUTSIDE_SECONDS < now) return invalid(`a token expired ${ago(now - exp)} before the answer`);
  const notBefore = Math.max(typeof nbf === 'number' ? nbf : -Infinity, typeof iat === 'number' ? iat : -Infinity);
  if (notBefore - CLEARLY_OUTSIDE_SECONDS > now) return invalid(`a token valid only ${ago(notBefore - now)} after the answer`);
  const audiences = Array.isArray(aud) ? aud.map(String) : [String(aud)];
  const identity = identities.find((i) => audiences.includes(i.audience));
  if (!identity)
    return invalid(
      `a token for the audience ${audiences.join(', ')}, not the tenant's (${[...new Set(identities.map((i) => i.audience))].join(', ')})`,
    );
  if (iss !== identity.issuer) return invalid(`a token whose issuer ${String(iss)} is not ${identity.issuer}`);
  return { kind: 'plausible', token, scopes: typeof scope === 'string' ? scope.split(' ').filter(Boolean) : [] };
}

function ago(seconds: number): string {
  if (seconds >= 7200) return `${Math.round(seconds / 3600)} h`;
  if (seconds >= 120) return `${Math.round(seconds / 60)} min`;
  return `${Math.round(seconds)} s`;
}
