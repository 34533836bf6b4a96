// Spec section 4.1 and 7: redelivery finds the event in the stream the path names, whichever of the
// tenant's streams that is, not only event_stream. With the stream of event_of_another_stream stated
// (stream_of_another_event, where that event failed), the pair the other way round from the matrix's
// other-owner rows: that event through its own stream is redelivered (202), and event_stream's failed
// event through that stream is not found (404). A lookup that keeps to one stream (the first of the
// tenant's, or the first one it loaded) answers the first 404, the second 202.
import { conformance, expectStatus, fixture, writes } from '../../harness/index.ts';
import { successOf } from '../../harness/suite/requests.ts';
import { cards } from '../../specs/cards/index.ts';

const redelivery = successOf('redeliver');

conformance(
  '[§4.1 redeliver.success.202] a failed event of another stream than event_stream, redelivered through its own stream, answers 202',
  { operation: 'redeliver', needs: [fixture('streamOfAnotherEvent'), fixture('eventOfAnotherStream'), writes], requests: 1 },
  async ({ target }) => {
    const exchange = await target.call('redeliver', {
      params: { id: target.fixture('streamOfAnotherEvent'), event_id: target.fixture('eventOfAnotherStream') },
    });
    expectStatus(exchange, cards.redeliver.success.status);
  },
);

conformance(
  "[§7 redeliver.errors.404.event] event_stream's failed event, redelivered through another stream of the tenant, answers 404",
  { ...redelivery.plan, needs: [...(redelivery.plan.needs as []), fixture('streamOfAnotherEvent')], requests: 1 },
  async ({ target }) => {
    await target.control('the redelivery of the failed event', () => redelivery.send(target));
    const exchange = await target.call('redeliver', {
      params: { id: target.fixture('streamOfAnotherEvent'), event_id: target.fixture('failedEvent') },
    });
    expectStatus(exchange, 404);
  },
);
