// Spec section 5 rule 2: a bearer JWT obtained through client credentials satisfies the schemes.
import { conformance, expectSuccess } from '../../harness/index.ts';
import { successOf } from '../../harness/suite/requests.ts';

const firstRead = successOf('vault');

conformance(
  '[§5 auth.schemes] a bearer JWT from the client-credentials flow authorizes a vault read',
  firstRead.plan,
  async ({ target }) => {
    expectSuccess(await firstRead.send(target));
  },
);
