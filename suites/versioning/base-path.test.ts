// Spec section 9: the version is part of the base path. The target file's base_url must end with
// it (checked when the file is read); here the operations answer there.
import { conformance, expectMatch, expectSuccess, fixture } from '../../harness/index.ts';
import { basePath } from '../../specs/index.ts';
import { sharedRequest } from '../requests.ts';

conformance(
  '[§9 versioning.base-path] the vault read answers under the /api/v2 base path',
  {
    operation: 'vault',
    needs: [fixture('vaultConnections')],
    requests: 0,
    shared: (c) => [sharedRequest.vaultRead(c.target.fixtures.vaultConnections[0]!)],
  },
  async ({ target }) => {
    const id = target.fixture('vaultConnections')[0]!;
    const exchange = await target.call('vault', { params: { id }, shared: sharedRequest.vaultRead(id) });
    expectMatch(new URL(exchange.request.url).pathname, new RegExp(`^${basePath}/`), 'path', { exchange });
    expectSuccess(exchange);
  },
);
