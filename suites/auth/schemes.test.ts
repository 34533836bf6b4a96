// Spec section 5 rule 2: a bearer JWT obtained through client credentials satisfies the schemes.
import { conformance, expectSuccess, fixture } from '../../harness/index.ts';
import { sharedRequest } from '../requests.ts';

conformance(
  '[§5 auth.schemes] a bearer JWT from the client-credentials flow authorizes a vault read',
  {
    operation: 'vault',
    needs: [fixture('vaultConnections')],
    requests: 0,
    shared: (c) => [sharedRequest.vaultRead(c.target.fixtures.vaultConnections[0]!)],
  },
  async ({ target }) => {
    const id = target.fixture('vaultConnections')[0]!;
    expectSuccess(await target.call('vault', { params: { id }, as: { role: 'global' }, shared: sharedRequest.vaultRead(id) }));
  },
);
