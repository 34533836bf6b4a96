// Observed: the ticket and vault operations need their own scopes (the spec does not show them),
// and every 403 names the scope it wanted.
import { conformance, expectObservedError, expectStatus } from '../../harness/index.ts';
import { observed, operationKeys } from '../../specs/index.ts';
import type { RoleName } from '../../harness/index.ts';
import { validRequest } from '../requests.ts';

const lacking: Record<string, RoleName> = {
  redeliver: 'without_redeliver_scope',
  'sso-ticket': 'without_sso_ticket_scope',
  vault: 'without_vault_scope',
};

conformance('[§5 sso-ticket.scope] ticket creation answers 403 to a token without create:sso_access_tickets', async ({ target }) => {
  const as = { role: target.role('without_sso_ticket_scope') };
  expectStatus(await target.call('sso-ticket', { ...validRequest(target, 'sso-ticket'), as }), 403);
});

conformance('[§5 vault.scope] the vault read answers 403 to a token without read:flows_vault_connections', async ({ target }) => {
  const as = { role: target.role('without_vault_scope') };
  expectStatus(await target.call('vault', { ...validRequest(target, 'vault'), as }), 403);
});

for (const op of operationKeys) {
  const scope = observed.operations[op].scope.value;
  conformance(`[§7 errors.403.scope-named] ${op} answers a token without ${scope} with insufficient_scope naming it`, async ({ target }) => {
    const exchange = await target.call(op, { ...validRequest(target, op), as: { role: target.role(lacking[op]!) } });
    expectObservedError(exchange, 'insufficient_scope', scope);
  });
}
