// Spec section 5 rule 2: a bearer JWT obtained through client credentials satisfies the schemes.
import { conformance, expectSuccess } from '../../harness/index.ts';
import { validRequest } from '../requests.ts';

conformance('[§5 auth.schemes] a bearer JWT from the client-credentials flow authorizes a vault read', async ({ target }) => {
  const token = await target.tokenFor('global');
  expectSuccess(await target.call('vault', { ...validRequest(target, 'vault'), as: { token } }));
});
