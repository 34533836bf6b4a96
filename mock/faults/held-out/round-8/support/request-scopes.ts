// One route's own permission check reading the scope claim its own way, knowing the request it
// judges (its method, its body): the token reaches the route re-signed with the scopes that check
// would see, so the verifier and the other routes stay conformant. Only correctly signed tokens of
// the tenant are read. The fourth round's readScopesAt does the same without the request.
import { SignJWT, decodeProtectedHeader, type JWTHeaderParameters } from 'jose';
import type { OperationKey } from '../../../../../specs/index.ts';
import type { FaultHooks } from '../../../../app.ts';
import { bearerToken } from '../../../../auth/bearer.ts';
import type { Exchange } from '../../../../exchange.ts';
import { capture } from '../../../support/captured.ts';
import { editRequests } from '../../../support/route-edits.ts';
import { signedPayload } from '../../../support/verifier-edits.ts';

/** `widen` gets the scopes of the claim (split on spaces) and the request; it returns the scopes the check sees. */
export function readScopesOfRequestAt(
  app: FaultHooks,
  key: OperationKey,
  widen: (scopes: readonly string[], exchange: Exchange) => string[],
): void {
  const keys = capture(app, 'keys');
  editRequests(app, key, async (exchange) => {
    const token = bearerToken(exchange.headers.authorization);
    const claims = token === undefined ? undefined : await signedPayload(token, keys());
    if (token === undefined || !claims || typeof claims.scope !== 'string') return exchange;
    const held = claims.scope.split(' ').filter((s) => s.length > 0);
    const seen = widen(held, exchange);
    if (seen.length === held.length && seen.every((scope, i) => scope === held[i])) return exchange;
    const resigned = await new SignJWT({ ...claims, scope: seen.join(' ') })
      .setProtectedHeader(decodeProtectedHeader(token) as JWTHeaderParameters)
      .sign(keys().privateKey);
    return { ...exchange, headers: { ...exchange.headers, authorization: `Bearer ${resigned}` } };
  });
}
