// Observed: an unknown vault connection is answered 404 "Connection not found".
import { cases, conformance, expectObservedError } from '../../harness/index.ts';
import { unknownIdOf, vaultConnectionId } from '../../generators/index.ts';
import { refusalPlan, refusals, sendRefusal } from '../refusals.ts';

conformance(
  '[§7 errors.404.vault] an unknown vault connection is answered 404 "Connection not found"',
  { ...refusalPlan(refusals.unknownVaultConnection), requests: cases(0) },
  async ({ target }) => {
    expectObservedError(await sendRefusal(target, refusals.unknownVaultConnection), 'vault_connection_not_found');
    await target.cases([], unknownIdOf(vaultConnectionId(), target.fixture('vaultConnections')), async (id) => {
      expectObservedError(await target.call('vault', { params: { id } }), 'vault_connection_not_found');
    });
  },
);
