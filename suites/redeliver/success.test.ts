// Spec section 4.1: a failed event redelivered again. Its first redelivery's status and body are
// checked with every operation's answer (suites/operations/answer.test.ts).
import { conformance, expectOneOf } from '../../harness/index.ts';
import { successOf } from '../../harness/suite/requests.ts';

const redelivery = successOf('redeliver');

// The same event redelivered again: accepted again (202), or refused once its state no longer
// allows it (409); never another success status (an idempotency cache answering 200 "already
// queued"). It re-sends the event to its destination, so against test doubles only.
const testDoublesOnly = {
  check: (context: { target: { testDouble: boolean } }) =>
    context.target.testDouble ? undefined : "a second redelivery re-sends the event to its stream's destination: against test doubles only",
  category: 'extended' as const,
};
conformance(
  '[§4.1 redeliver.success.202] redelivery of the same failed event again answers 202, or 409 once its state no longer allows it',
  { ...redelivery.plan, needs: [...(redelivery.plan.needs as []), testDoublesOnly], requests: 1 },
  async ({ target }) => {
    await target.control('the first redelivery of the failed event', () => redelivery.send(target));
    const again = await target.call('redeliver', {
      params: { id: target.fixture('eventStream'), event_id: target.fixture('failedEvent') },
    });
    expectOneOf(again, [202, 409]);
  },
);
