// Observed (inferred): authentication is decided before authorization, and both before checks of
// the path, the body or the state, so an unauthenticated caller learns nothing about which ids
// exist.
import { conformance, expectStatus, fixture, role } from '../../harness/index.ts';
import { unknownIdOf, vaultConnectionId } from '../../generators/index.ts';
import { exampleOf } from '../requests.ts';

conformance(
  '[§7 auth.order] a request without a token and with a malformed id is answered 401, not 400',
  { operation: 'redeliver', requests: 1 },
  async ({ target }) => {
    const exchange = await target.call('redeliver', { params: { id: 'x', event_id: 'y' }, as: 'none' });
    expectStatus(exchange, 401);
  },
);

conformance(
  '[§7 auth.order] a request without a token for an unknown connection is answered 401, not 404',
  { operation: 'vault', needs: [fixture('vaultConnections')], requests: 1 },
  async ({ target }) => {
    const id = exampleOf(target, unknownIdOf(vaultConnectionId(), target.fixture('vaultConnections')));
    expectStatus(await target.call('vault', { params: { id }, as: 'none' }), 401);
  },
);

conformance(
  '[§7 auth.order] a token without the scope and a malformed id is answered 403, not 400',
  { operation: 'redeliver', needs: [role('without_redeliver_scope')], requests: 1 },
  async ({ target }) => {
    const exchange = await target.call('redeliver', {
      params: { id: 'x', event_id: 'y' },
      as: { role: target.role('without_redeliver_scope') },
    });
    expectStatus(exchange, 403);
  },
);
