// Observed: 401 messages name their cause. Each reads the vault read of the 401 matrix.
import { conformance, expectObservedError } from '../../harness/index.ts';
import { withCredential } from '../requests.ts';
import { badCredential } from './credentials.ts';

const messages = [
  {
    credential: 'a token with a tampered signature',
    message: 'Invalid signature received for JSON Web Token validation',
    error: 'invalid_signature',
  },
  { credential: 'an expired token', message: 'Expired token received for JSON Web Token validation', error: 'expired_token' },
  { credential: 'no Authorization header', message: 'Missing authentication', error: 'missing_authentication' },
];

for (const row of messages) {
  const bad = badCredential(row.credential);
  const request = withCredential('vault', bad.name, bad.make, bad);
  conformance(`[§7 errors.401.message] ${bad.name} is answered "${row.message}"`, request.plan, async ({ target }) => {
    expectObservedError(await request.send(target), row.error);
  });
}
