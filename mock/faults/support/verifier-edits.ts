// Faults in token checking. A lenient verifier still checks the signature (with the tenant's own
// key, RS256 only) and every claim but the one it forgives: the forgiven claim is replaced with a
// value that passes, and the claims are checked again. The leniency is the verifier's (every
// operation) or one route's own (forgiveClaimAt).
import type { IncomingHttpHeaders } from 'node:http';
import { SignJWT, compactVerify, decodeProtectedHeader, type JWTHeaderParameters } from 'jose';
import { observed, type OperationKey } from '../../../specs/index.ts';
import type { FaultHooks } from '../../app.ts';
import { bearerToken, decodeJws, jsonObjectOf } from '../../auth/bearer.ts';
import type { SigningKeys } from '../../auth/keys.ts';
import type { Principal, TokenVerifier, Verification } from '../../auth/verifier.ts';
import type { Components } from '../../components.ts';
import { captureAll } from './captured.ts';
import { editRequests } from './route-edits.ts';

type Claims = Record<string, unknown>;

/** The payload of a token whose RS256 signature verifies with a key of the tenant; else undefined. */
export async function signedPayload(token: string, keys: SigningKeys): Promise<Claims | undefined> {
  const header = decodeJws(token)?.header;
  if (!header || header.alg !== observed.tokens.alg) return undefined;
  const key = keys.publicKeyFor(typeof header.kid === 'string' ? header.kid : undefined);
  if (!key) return undefined;
  try {
    const { payload } = await compactVerify(token, key, { algorithms: [observed.tokens.alg] });
    return jsonObjectOf(Buffer.from(payload).toString('base64url'));
  } catch {
    return undefined;
  }
}

/** Replaces the verifier; `parts` are the components built before it (keys, clock, tenant, store). */
export function editVerifier(
  app: FaultHooks,
  edit: (verifier: TokenVerifier, parts: Pick<Components, 'keys' | 'clock' | 'tenant' | 'store'>) => TokenVerifier,
): void {
  app.override('verifier', (verifier, built) =>
    edit(verifier, { keys: built.keys!, clock: built.clock!, tenant: built.tenant!, store: built.store! }),
  );
}

/** What a lenient claim check knows: who the tenant is, and the time. */
export type ForgivingParts = Pick<Components, 'tenant' | 'clock'>;

/**
 * Accepts a correctly signed token that fails only on a claim `forgive` repairs: a refused token is
 * checked again with `forgive(claims)` (which returns the claims unchanged where it forgives nothing).
 */
export function forgiveClaim(app: FaultHooks, forgive: (claims: Claims, parts: ForgivingParts) => Claims): void {
  alsoAccept(app, async (token, parts) => {
    const claims = await signedPayload(token, parts.keys);
    return claims && forgive(claims, parts);
  });
}

/**
 * The leniency of forgiveClaim in one route's own token check (a service of its own behind the
 * same gateway), the other routes staying strict: a token the verifier refuses but `forgive`
 * repairs reaches the route re-signed with its claims repaired; only requests `when` takes.
 */
export function forgiveClaimAt(
  app: FaultHooks,
  key: OperationKey,
  forgive: (claims: Claims, parts: ForgivingParts) => Claims,
  when: (headers: IncomingHttpHeaders) => boolean = () => true,
): void {
  const components = captureAll(app);
  editRequests(app, key, async (exchange) => {
    const { verifier, keys } = components();
    const { authorization, host } = exchange.headers;
    const token = bearerToken(authorization);
    if (token === undefined || !when(exchange.headers) || (await verifier.verify(authorization, host)).ok) return exchange;
    const claims = await signedPayload(token, keys);
    const repaired = claims && forgive(claims, components());
    if (!repaired || !verifier.checkClaims(repaired, host).ok) return exchange;
    const resigned = await new SignJWT(repaired)
      .setProtectedHeader(decodeProtectedHeader(token) as JWTHeaderParameters)
      .sign(keys.privateKey);
    return { ...exchange, headers: { ...exchange.headers, authorization: `Bearer ${resigned}` } };
  });
}

/** Changes who a verified token's caller is (its client, its scopes). */
export function editPrincipal(app: FaultHooks, edit: (principal: Principal) => Principal): void {
  editVerifier(app, (verifier) => {
    const edited = (verification: Verification): Verification =>
      verification.ok ? { ok: true, principal: edit(verification.principal) } : verification;
    return {
      async verify(authorization, host) {
        return edited(await verifier.verify(authorization, host));
      },
      checkClaims(claims, host) {
        return edited(verifier.checkClaims(claims, host));
      },
    };
  });
}

/**
 * Accepts, besides what the verifier accepts, tokens that `accepts` vouches for: their claims are
 * still checked, and a token that fails that check keeps the verifier's own refusal.
 */
export function alsoAccept(
  app: FaultHooks,
  accepts: (token: string, parts: Pick<Components, 'keys' | 'tenant' | 'clock'>) => Promise<Claims | undefined>,
): void {
  editVerifier(app, (verifier, parts) => ({
    ...verifier,
    async verify(authorization, host) {
      const verification = await verifier.verify(authorization, host);
      if (verification.ok) return verification;
      const token = bearerToken(authorization);
      const claims = token === undefined ? undefined : await accepts(token, parts);
      const again = claims ? verifier.checkClaims(claims, host) : verification;
      return again.ok ? again : verification;
    },
  }));
}
