// Every operation of the interface, once: what the harness and the suites need to know of each
// beyond what specs/ says (its path, method and parameters come from openapi.yaml). Roles,
// fixtures and the request builders of the suites come from here or are typed by OperationKey, so
// adding an operation to specs/ makes the compiler point at every place that needs it (see
// "Adding an operation" in the README).
import type { OperationKey } from '../specs/index.ts';
import type { FixtureName } from '../specs/cards/fixtures.ts';

interface OperationEntry {
  /** The role holding every scope of the three operations but this one's (its 403 tests). */
  roleWithoutScope: string;
  /** The fixtures its well-formed request is made of. */
  fixtures: readonly FixtureName[];
}

export const operationTable = {
  redeliver: { roleWithoutScope: 'without_redeliver_scope', fixtures: ['eventStream', 'failedEvent'] },
  'sso-ticket': { roleWithoutScope: 'without_sso_ticket_scope', fixtures: ['selfServiceProfile'] },
  vault: { roleWithoutScope: 'without_vault_scope', fixtures: ['vaultConnections'] },
} as const satisfies Record<OperationKey, OperationEntry>;
