// Observed (inferred): authentication is decided before authorization, and both before checks of
// the path, the body or the state, so an unauthenticated caller learns nothing about which ids
// exist.
import fc from 'fast-check';
import { conformance, expectStatus } from '../../harness/index.ts';
import { unknownIdOf, vaultConnectionId } from '../../generators/index.ts';

conformance('[§7 auth.order] a request without a token and with a malformed id is answered 401, not 400', async ({ target }) => {
  const exchange = await target.call('redeliver', { params: { id: 'x', event_id: 'y' }, as: 'none' });
  expectStatus(exchange, 401);
});

conformance('[§7 auth.order] a request without a token for an unknown connection is answered 401, not 404', async ({ target }) => {
  const [id] = fc.sample(unknownIdOf(vaultConnectionId(), target.fixture('vaultConnections')), { numRuns: 1, seed: target.settings.seed });
  const exchange = await target.call('vault', { params: { id: id! }, as: 'none' });
  expectStatus(exchange, 401);
});

conformance('[§7 auth.order] a token without the scope and a malformed id is answered 403, not 400', async ({ target }) => {
  const exchange = await target.call('redeliver', { params: { id: 'x', event_id: 'y' }, as: { role: target.role('without_redeliver_scope') } });
  expectStatus(exchange, 403);
});
