// Spec section 7: 409 when the event is not in a state that allows redelivery. A server that
// ignored the state would redeliver a delivered event, so this runs on a tenant only with opt-in.
import { conformance, expectStatus, fixture, writes } from '../../harness/index.ts';

conformance(
  '[§7 redeliver.errors.409.state] redelivery answers 409 for an event whose state does not allow it',
  { needs: [fixture('eventStream'), fixture('notRedeliverableEvent'), writes], requests: 1 },
  async ({ target }) => {
    const exchange = await target.call('redeliver', {
      params: { id: target.fixture('eventStream'), event_id: target.fixture('notRedeliverableEvent') },
    });
    expectStatus(exchange, 409);
  },
);
