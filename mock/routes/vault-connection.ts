// GET /api/v2/flows/vault/connections/{id} (spec 4.3): read one flows vault connection. 200 with
// the record (unset optional fields omitted), 404 "Connection not found" for an unknown id.
import type { Components } from '../components.ts';
import type { RouteHandler } from '../exchange.ts';
import { refuse } from '../refusal.ts';
import { authenticate } from '../stages/authenticate.ts';
import { authorize } from '../stages/authorize.ts';
import { validatePath } from '../stages/validate.ts';
import { success } from './success.ts';

const KEY = 'vault';

export function vaultConnectionRoute(deps: Components): RouteHandler {
  return async function readVaultConnection(exchange) {
    const principal = await authenticate(deps, exchange);
    authorize(deps, principal, KEY);
    const { id } = validatePath(deps, KEY, exchange.params);
    const record = deps.store.vaultConnection(id!) ?? refuse(deps, 'vault_connection_not_found');
    return success(KEY, record);
  };
}
