// Stage 2: may this caller use the operation, as its card says. Redelivery needs a global client
// (spec 5, rule 4: a non-global client is answered 401); every operation needs its scope (403
// naming the scope).
import type { OperationCard } from '../../specs/cards/card.ts';
import type { Principal } from '../auth/verifier.ts';
import type { Components } from '../components.ts';
import { refuse } from '../refusal.ts';

export function authorize(deps: Components, principal: Principal, card: OperationCard): void {
  if (card.globalClient && !principal.client.global) refuse(deps, 'client_not_global');
  const needed = card.scope.value;
  if (!principal.scopes.has(needed)) refuse(deps, 'insufficient_scope', needed);
}
