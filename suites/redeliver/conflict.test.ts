// Spec section 7: 409 when the event is not in a state that allows redelivery. Its positive
// control is the redelivery of the failed event of the same stream, accepted in the same run. A
// server that ignored the state would redeliver a delivered event, so this runs on a tenant only
// with opt-in.
import { conformance, expectStatus, fixture } from '../../harness/index.ts';
import { successOf } from '../../harness/suite/requests.ts';

const redelivery = successOf('redeliver');

conformance(
  '[§7 redeliver.errors.409.state] redelivery answers 409 for an event whose state does not allow it',
  { ...redelivery.plan, needs: [...(redelivery.plan.needs as []), fixture('notRedeliverableEvent')], requests: 1 },
  async ({ target }) => {
    await target.control('the redelivery of the failed event', () => redelivery.send(target));
    const exchange = await target.call('redeliver', {
      params: { id: target.fixture('eventStream'), event_id: target.fixture('notRedeliverableEvent') },
    });
    expectStatus(exchange, 409);
  },
);
