// Faults in token checking. A lenient verifier still checks the signature (with the tenant's own
// key, RS256 only) and every claim but the one it forgives: the forgiven claim is replaced with a
// value that passes, and the claims are checked again.
import { compactVerify } from 'jose';
import { observed } from '../../../specs/index.ts';
import type { FaultHooks } from '../../app.ts';
import { bearerToken, decodeJws, jsonObjectOf } from '../../auth/bearer.ts';
import type { SigningKeys } from '../../auth/keys.ts';
import type { Principal, TokenVerifier, Verification } from '../../auth/verifier.ts';
import type { Components } from '../../components.ts';

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
export function editVerifier(app: FaultHooks, edit: (verifier: TokenVerifier, parts: Pick<Components, 'keys' | 'clock' | 'tenant' | 'store'>) => TokenVerifier): void {
  app.override('verifier', (verifier, built) => edit(verifier, { keys: built.keys!, clock: built.clock!, tenant: built.tenant!, store: built.store! }));
}

/**
 * Accepts a correctly signed token that fails only on a claim `forgive` repairs: a refused token is
 * checked again with `forgive(claims)`.
 */
export function forgiveClaim(app: FaultHooks, forgive: (claims: Claims, parts: Pick<Components, 'tenant'>) => Claims): void {
  alsoAccept(app, async (token, parts) => {
    const claims = await signedPayload(token, parts.keys);
    return claims && forgive(claims, parts);
  });
}

/** Changes who a verified token's caller is (its client, its scopes). */
export function editPrincipal(app: FaultHooks, edit: (principal: Principal) => Principal): void {
  editVerifier(app, (verifier) => {
    const edited = (verification: Verification): Verification => (verification.ok ? { ok: true, principal: edit(verification.principal) } : verification);
    return {
      async verify(authorization) {
        return edited(await verifier.verify(authorization));
      },
      checkClaims(claims) {
        return edited(verifier.checkClaims(claims));
      },
    };
  });
}

/**
 * Accepts, besides what the verifier accepts, tokens that `accepts` vouches for: their claims are
 * still checked, and a token that fails that check keeps the verifier's own refusal.
 */
export function alsoAccept(app: FaultHooks, accepts: (token: string, parts: Pick<Components, 'keys' | 'tenant'>) => Promise<Claims | undefined>): void {
  editVerifier(app, (verifier, parts) => ({
    ...verifier,
    async verify(authorization) {
      const verification = await verifier.verify(authorization);
      if (verification.ok) return verification;
      const token = bearerToken(authorization);
      const claims = token === undefined ? undefined : await accepts(token, parts);
      const again = claims ? verifier.checkClaims(claims) : verification;
      return again.ok ? again : verification;
    },
  }));
}
