// Stage 1 of every operation: who is calling. A request without a valid access token is refused
// with 401 before anything about the path, the headers or the body is looked at.
import type { Principal } from '../auth/verifier.ts';
import type { Components } from '../components.ts';
import type { Exchange } from '../exchange.ts';
import { refuse } from '../refusal.ts';

export async function authenticate(deps: Components, exchange: Exchange): Promise<Principal> {
  const verification = await deps.verifier.verify(exchange.headers.authorization, exchange.headers.host);
  if (!verification.ok) refuse(deps, verification.error, verification.detail);
  return verification.principal;
}
