// Section 8: the vault connection id in the path has at most 30 characters. An id one character
// over, made from an existing id at the maximum, catches a server that truncates.
import fc from 'fast-check';
import { conformance, expectObservedError, expectRefused, expectSuccess, type TargetSession } from '../../harness/index.ts';
import { vaultConnectionIdOverMaximum } from '../../generators/index.ts';
import { limit } from '../../specs/index.ts';

const maximum = limit('vault.path.id.length').max!;

function connectionAtMaximum(target: TargetSession): string {
  const id = target.fixture('vaultConnections').find((candidate) => candidate.length === maximum);
  target.needs(id !== undefined, `needs a vault connection whose id has the maximum length (${maximum}) in fixtures.vault_connections`);
  return id!;
}

conformance('[§4.3 vault.path.id.length] the vault read accepts an existing id of the maximum length', async ({ target }) => {
  expectSuccess(await target.call('vault', { params: { id: connectionAtMaximum(target) } }));
});

conformance('[§4.3 vault.path.id.length] the vault read refuses an existing id of the maximum length with one character added', async ({ target }) => {
  expectRefused(await target.call('vault', { params: { id: `${connectionAtMaximum(target)}x` } }));
});

conformance('[§4.3 vault.path.id.length] the vault read refuses generated ids over the maximum length', async ({ target }) => {
  await fc.assert(
    fc.asyncProperty(vaultConnectionIdOverMaximum(), async (id) => {
      expectRefused(await target.call('vault', { params: { id } }));
    }),
  );
});

conformance('[§7 errors.400.path] the vault read answers an id over the maximum with 400 invalid_uri naming id', async ({ target }) => {
  const [id] = fc.sample(vaultConnectionIdOverMaximum(), { numRuns: 1, seed: target.settings.seed });
  expectObservedError(await target.call('vault', { params: { id: id! } }), 'invalid_uri', 'id');
});
