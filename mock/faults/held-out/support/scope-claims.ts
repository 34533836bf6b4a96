// One route's own permission check reading the scope claim its own way: the token reaches the
// route re-signed with the scopes that check would see, so the rest of the mock (the verifier, the
// other routes) stays conformant. Only correctly signed tokens of the tenant are read.
import { SignJWT, decodeProtectedHeader, type JWTHeaderParameters } from 'jose';
import type { OperationKey } from '../../../../specs/index.ts';
import type { FaultHooks } from '../../../app.ts';
import { bearerToken } from '../../../auth/bearer.ts';
import { capture } from '../../support/captured.ts';
import { editRequests } from '../../support/route-edits.ts';
import { signedPayload } from '../../support/verifier-edits.ts';

type Claims = Record<string, unknown>;

/**
 * `widen` gets the scopes of the token's scope claim (split on spaces) and its claims, and
 * returns the scopes the route's check sees; a token whose scopes it leaves alone passes unchanged.
 */
export function readScopesAt(app: FaultHooks, key: OperationKey, widen: (scopes: readonly string[], claims: Claims) => string[]): void {
  const keys = capture(app, 'keys');
  editRequests(app, key, async (exchange) => {
    const token = bearerToken(exchange.headers.authorization);
    const claims = token === undefined ? undefined : await signedPayload(token, keys());
    if (token === undefined || !claims || (claims.scope !== undefined && typeof claims.scope !== 'string')) return exchange;
    const held = typeof claims.scope === 'string' ? claims.scope.split(' ').filter((s) => s.length > 0) : [];
    const seen = widen(held, claims);
    if (seen.length === held.length && seen.every((scope, i) => scope === held[i])) return exchange;
    const resigned = await new SignJWT({ ...claims, scope: seen.join(' ') })
      .setProtectedHeader(decodeProtectedHeader(token) as JWTHeaderParameters)
      .sign(keys().privateKey);
    return { ...exchange, headers: { ...exchange.headers, authorization: `Bearer ${resigned}` } };
  });
}
