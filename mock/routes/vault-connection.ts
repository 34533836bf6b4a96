// GET /api/v2/flows/vault/connections/{id} (spec 4.3): read one flows vault connection. 200 with
// the record (unset optional fields omitted), 404 "Connection not found" for an unknown id.
import type { OperationCard } from '../../specs/cards/card.ts';
import type { Components } from '../components.ts';
import type { RouteHandler } from '../exchange.ts';
import { refuse } from '../refusal.ts';
import { authenticate } from '../stages/authenticate.ts';
import { authorize } from '../stages/authorize.ts';
import { validatePath } from '../stages/validate.ts';
import { success } from './success.ts';

export function vaultConnectionRoute(deps: Components, card: OperationCard): RouteHandler {
  return async function readVaultConnection(exchange) {
    const principal = await authenticate(deps, exchange);
    authorize(deps, principal, card);
    const { id } = validatePath(deps, card.key, exchange.params);
    const record = deps.store.vaultConnection(id!) ?? refuse(deps, 'vault_connection_not_found');
    return success(card, record);
  };
}
