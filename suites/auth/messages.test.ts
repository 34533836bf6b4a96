// Observed: 401 messages name their cause.
import { conformance, expectObservedError, withTamperedSignature } from '../../harness/index.ts';
import { validRequest } from '../requests.ts';

conformance('[§7 errors.401.message] a tampered signature is answered "Invalid signature received for JSON Web Token validation"', async ({ target }) => {
  const token = withTamperedSignature(await target.tokenFor('global'));
  expectObservedError(await target.call('vault', { ...validRequest(target, 'vault'), as: { token } }), 'invalid_signature');
});

conformance('[§7 errors.401.message] an expired token is answered "Expired token received for JSON Web Token validation"', async ({ target }) => {
  target.signingKey();
  const token = await target.forge.expired(await target.tokenFor('global'));
  expectObservedError(await target.call('vault', { ...validRequest(target, 'vault'), as: { token } }), 'expired_token');
});

conformance('[§7 errors.401.message] a request without a token is answered "Missing authentication"', async ({ target }) => {
  expectObservedError(await target.call('vault', { ...validRequest(target, 'vault'), as: 'none' }), 'missing_authentication');
});
