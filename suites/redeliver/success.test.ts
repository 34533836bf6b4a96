// Spec section 4.1: redelivery of a failed event answers 202; observed: with {} as JSON. One
// redelivery, read by both.
import { conformance, expectEqual, expectObservedContentType, expectOneOf, expectStatus } from '../../harness/index.ts';
import { observed } from '../../specs/index.ts';
import { successOf } from '../../harness/suite/requests.ts';

const redelivery = successOf('redeliver');

conformance('[§4.1 redeliver.success.202] redelivery of a failed event answers 202', redelivery.plan, async ({ target }) => {
  expectStatus(await redelivery.send(target), 202);
});

conformance('[§4.1 redeliver.response.body] the 202 of a redelivery carries {} as JSON', redelivery.plan, async ({ target }) => {
  const exchange = await redelivery.send(target);
  expectStatus(exchange, observed.operations.redeliver.success.status);
  expectObservedContentType(exchange);
  expectEqual(exchange.json, observed.operations.redeliver.success.body, 'body', { exchange });
});

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
