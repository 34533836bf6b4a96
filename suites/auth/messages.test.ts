// Observed: 401 messages name their cause. Each reads the vault read of the 401 matrix.
import { conformance, expectObservedError } from '../../harness/index.ts';
import { errorFact } from '../../specs/index.ts';
import { badCredential, withBadCredential } from './credentials.ts';

/** Each credential with the error kind of specs/observed.yaml it is answered with. */
const messages = [
  { credential: 'a token with a tampered signature', error: 'invalid_signature' },
  { credential: 'an expired token', error: 'expired_token' },
  { credential: 'no Authorization header', error: 'missing_authentication' },
];

for (const row of messages) {
  const bad = badCredential(row.credential);
  const request = withBadCredential('vault', bad);
  conformance(`[§7 errors.401.message] ${bad.name} is answered "${errorFact(row.error).message}"`, request.plan, async ({ target }) => {
    expectObservedError(await request.send(target), row.error);
  });
}
