// Observed: an unknown vault connection is answered 404 "Connection not found".
import fc from 'fast-check';
import { conformance, expectObservedError } from '../../harness/index.ts';
import { unknownIdOf, vaultConnectionId } from '../../generators/index.ts';

conformance('[§7 errors.404.vault] an unknown vault connection is answered 404 "Connection not found"', async ({ target }) => {
  const known = target.fixture('vaultConnections');
  await fc.assert(
    fc.asyncProperty(unknownIdOf(vaultConnectionId(), known), async (id) => {
      expectObservedError(await target.call('vault', { params: { id } }), 'vault_connection_not_found');
    }),
  );
});
