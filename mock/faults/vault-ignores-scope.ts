// A permission table without an entry for the vault read: every valid token may read connections.
import { observed } from '../../specs/index.ts';
import type { Fault } from './fault.ts';
import { editPrincipal } from './support/verifier-edits.ts';

const VAULT_SCOPE = observed.operations.vault.scope.value;

export const vaultIgnoresScope: Fault = {
  id: 'vault-ignores-scope',
  clause: 'vault.scope',
  description: 'The vault read does not require read:flows_vault_connections: a valid token without it reads connections.',
  install(app) {
    editPrincipal(app, (principal) => ({ ...principal, scopes: new Set([...principal.scopes, VAULT_SCOPE]) }));
  },
};
