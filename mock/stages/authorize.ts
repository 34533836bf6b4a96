// Stage 2: may this caller use the operation. Redelivery needs a global client (spec 5, rule 4:
// a non-global client is answered 401); every operation needs its scope (403 naming the scope).
import { observed, operation, type OperationKey } from '../../specs/index.ts';
import type { Principal } from '../auth/verifier.ts';
import type { Components } from '../components.ts';
import { refuse } from '../refusal.ts';

export function authorize(deps: Components, principal: Principal, key: OperationKey): void {
  if (operation(key).requiresGlobalClient && !principal.client.global) refuse(deps, 'client_not_global');
  const needed = observed.operations[key].scope.value;
  if (!principal.scopes.has(needed)) refuse(deps, 'insufficient_scope', needed);
}
