// Checks an access token the way the service must (spec sections 5 and 7): a `Bearer <JWS>`
// header, alg RS256 only (no `none`, no HS256 keyed with the public key), a kid the tenant
// publishes, a valid signature, then the claims: not expired, not used before nbf or iat, an
// issuer of the tenant and the management audience of that same identity (see tenant.ts), and a
// client that exists. Each failure names the error catalogue entry the 401 answers with. Time
// comes from the injected clock; exp, nbf and iat allow a small clock skew
// (observed.tokens.clock_skew_seconds), nothing more.
import { compactVerify } from 'jose';
import { observed } from '../../specs/index.ts';
import type { Clock } from '../clock.ts';
import type { Client, Store } from '../store.ts';
import type { Tenant } from '../tenant.ts';
import { audiencesOf, bearerToken, decodeJws, jsonObjectOf } from './bearer.ts';
import type { SigningKeys } from './keys.ts';

export type TokenErrorKind = 'missing_authentication' | 'invalid_token' | 'invalid_signature' | 'expired_token' | 'bad_audience';

export interface Principal {
  client: Client;
  scopes: ReadonlySet<string>;
  claims: Readonly<Record<string, unknown>>;
}

/** A refusal names its catalogue entry, why (for tests), and the entry's details where it takes some. */
export type Verification = { ok: true; principal: Principal } | { ok: false; error: TokenErrorKind; reason: string; detail?: string };

export interface TokenVerifier {
  /**
   * Verifies an Authorization header value; `host` is the Host the request named (see tenant.ts),
   * undefined when it named none. Required, so that a wrapper cannot drop it on the way through.
   */
  verify(authorization: string | undefined, host: string | undefined): Promise<Verification>;
  /** The claim checks alone, for a payload whose signature is already trusted; `host` as for verify. */
  checkClaims(claims: Readonly<Record<string, unknown>>, host: string | undefined): Verification;
}

export interface VerifierParts {
  keys: SigningKeys;
  clock: Clock;
  tenant: Tenant;
  store: Store;
}

/**
 * Authorization values whose token's signature verified, by their exact text, so that a client
 * reusing its token (as real clients do for a day) costs one RSA verification, not one per
 * request. Claims are checked again on every request; the cache only remembers that these bytes
 * carry a valid signature.
 */
const VERIFIED_CACHE_SIZE = 1024;

/** How far issuer and verifier clocks may disagree, in milliseconds. */
const CLOCK_SKEW_MS = observed.tokens.clock_skew_seconds.value * 1000;

/** The scope claim as a set, parsed once per (frozen, cached) claims object. */
const parsedScopes = new WeakMap<object, ReadonlySet<string>>();

function scopesOf(claims: object, scope: string | undefined): ReadonlySet<string> {
  let scopes = parsedScopes.get(claims);
  if (!scopes) {
    scopes = new Set((scope ?? '').split(' ').filter((s) => s.length > 0));
    parsedScopes.set(claims, scopes);
  }
  return scopes;
}

export function createTokenVerifier({ keys, clock, tenant, store }: VerifierParts): TokenVerifier {
  const verified = new Map<string, Readonly<Record<string, unknown>>>();

  function refuse(error: TokenErrorKind, reason: string, detail?: string): Verification {
    return { ok: false, error, reason, ...(detail !== undefined ? { detail } : {}) };
  }

  type Signed = { claims: Readonly<Record<string, unknown>> } | { failure: Verification };

  async function signedClaims(token: string, authorization: string): Promise<Signed> {
    const checked = await verifySignature(token);
    if ('claims' in checked) {
      if (verified.size >= VERIFIED_CACHE_SIZE) verified.delete(verified.keys().next().value!);
      verified.set(authorization, checked.claims);
    }
    return checked;
  }

  async function verifySignature(token: string): Promise<Signed> {
    const refuse = (error: TokenErrorKind, reason: string): Signed => ({ failure: { ok: false, error, reason } });
    const decoded = decodeJws(token);
    if (!decoded) return refuse('invalid_token', 'the token does not decode to a JOSE header and a JSON payload');
    const { alg, kid } = decoded.header;
    if (alg === 'none' || alg === undefined) return refuse('invalid_token', 'the token is not signed');
    if (alg !== observed.tokens.alg)
      return refuse('invalid_signature', `alg ${typeof alg === 'string' ? alg : JSON.stringify(alg)} is not accepted`);
    // Without a kid no published key is named (observed.tokens.kid_required).
    if (kid === undefined) return refuse('invalid_token', 'the token has no kid');
    if (typeof kid !== 'string') return refuse('invalid_token', 'kid is not a string');
    const key = keys.publicKeyFor(kid);
    if (!key) return refuse('invalid_signature', 'kid names no key of the tenant');
    let payload: Record<string, unknown> | undefined;
    try {
      const result = await compactVerify(token, key, { algorithms: [observed.tokens.alg] });
      payload = jsonObjectOf(Buffer.from(result.payload).toString('base64url'));
    } catch {
      return refuse('invalid_signature', 'the signature does not verify');
    }
    if (!payload) return refuse('invalid_token', 'the payload is not a JSON object');
    return { claims: Object.freeze(payload) };
  }

  function checkClaims(claims: Readonly<Record<string, unknown>>, host: string | undefined): Verification {
    const nowMs = clock.now();
    const { exp, nbf, iat, iss, aud, azp, sub, scope } = claims;
    if (typeof exp !== 'number') return refuse('invalid_token', 'exp is missing');
    if (nowMs >= exp * 1000 + CLOCK_SKEW_MS) return refuse('expired_token', 'exp has passed');
    if (nbf !== undefined && (typeof nbf !== 'number' || nowMs < nbf * 1000 - CLOCK_SKEW_MS))
      return refuse('invalid_token', 'nbf is in the future');
    if (iat !== undefined && (typeof iat !== 'number' || nowMs < iat * 1000 - CLOCK_SKEW_MS))
      return refuse('invalid_token', 'iat is in the future');
    const identity = typeof iss === 'string' ? tenant.identityForIssuer(iss, host) : undefined;
    if (!identity) return refuse('invalid_token', 'iss is not the tenant');
    const audiences = audiencesOf(aud);
    if (!audiences.includes(identity.audience))
      return refuse('bad_audience', 'aud is not the management interface', audiences.map(String).join(' '));
    const clientId = typeof azp === 'string' ? azp : undefined;
    if (clientId === undefined || sub !== `${clientId}${observed.tokens.subject_suffix}`)
      return refuse('invalid_token', 'sub and azp do not name a client');
    const client = store.client(clientId);
    if (!client) return refuse('invalid_token', 'the client does not exist');
    if (scope !== undefined && typeof scope !== 'string') return refuse('invalid_token', 'scope is not a string');
    return { ok: true, principal: { client, scopes: scopesOf(claims, scope), claims } };
  }

  return {
    async verify(authorization, host) {
      if (authorization === undefined) return refuse('missing_authentication', 'no Authorization header');
      // The header value of a token already verified skips parsing as well as the signature.
      const known = verified.get(authorization);
      if (known) return checkClaims(known, host);
      const token = bearerToken(authorization);
      if (token === undefined) return refuse('invalid_token', 'no Bearer <JWS> credential');
      const signed = await signedClaims(token, authorization);
      return 'failure' in signed ? signed.failure : checkClaims(signed.claims, host);
    },
    checkClaims,
  };
}
