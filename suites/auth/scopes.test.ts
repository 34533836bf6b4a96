// Observed: the ticket and vault operations need their own scopes (the spec does not show them),
// and every 403 names the scope it wanted. One request per operation, with the role that holds
// every scope of the three operations but that operation's.
import { conformance, expectObservedError, expectStatus } from '../../harness/index.ts';
import { observed, operationKeys } from '../../specs/index.ts';
import { withoutScope } from '../requests.ts';

const ticket = withoutScope('sso-ticket');
conformance(
  '[§5 sso-ticket.scope] ticket creation answers 403 to a token without create:sso_access_tickets',
  ticket.plan,
  async ({ target }) => {
    expectStatus(await ticket.send(target), 403);
  },
);

const vault = withoutScope('vault');
conformance(
  '[§5 vault.scope] the vault read answers 403 to a token without read:flows_vault_connections',
  vault.plan,
  async ({ target }) => {
    expectStatus(await vault.send(target), 403);
  },
);

for (const op of operationKeys) {
  const scope = observed.operations[op].scope.value;
  const request = withoutScope(op);
  conformance(
    `[§7 errors.403.scope-named] ${op} answers a token without ${scope} with insufficient_scope naming it`,
    request.plan,
    async ({ target }) => {
      expectObservedError(await request.send(target), 'insufficient_scope', scope);
    },
  );
}
