// Spec section 8: both path ids of a redelivery are exactly 26 characters. Ids one character off
// that are made from existing ones catch a server that truncates or prefix-matches; generated
// realistic ids of the wrong length catch one that lets any length through.
import fc from 'fast-check';
import { conformance, expectRefused } from '../../harness/index.ts';
import { eventIdTooLong, eventIdTooShort, streamIdTooLong, streamIdTooShort } from '../../generators/index.ts';

conformance('[§8 redeliver.path.id.length] redelivery refuses an existing stream id with one character added', async ({ target }) => {
  target.writes();
  const exchange = await target.call('redeliver', {
    params: { id: `${target.fixture('eventStream')}x`, event_id: target.fixture('failedEvent') },
  });
  expectRefused(exchange);
});

conformance('[§8 redeliver.path.id.length] redelivery refuses an existing stream id with its last character removed', async ({ target }) => {
  target.writes();
  const exchange = await target.call('redeliver', {
    params: { id: target.fixture('eventStream').slice(0, -1), event_id: target.fixture('failedEvent') },
  });
  expectRefused(exchange);
});

conformance('[§8 redeliver.path.id.length] redelivery refuses generated stream ids one under or one over the length', async ({ target }) => {
  const eventId = target.fixture('failedEvent');
  await fc.assert(
    fc.asyncProperty(fc.oneof(streamIdTooShort(), streamIdTooLong()), async (id) => {
      expectRefused(await target.call('redeliver', { params: { id, event_id: eventId } }));
    }),
  );
});

conformance('[§8 redeliver.path.event_id.length] redelivery refuses an existing event id with one character added', async ({ target }) => {
  target.writes();
  const exchange = await target.call('redeliver', {
    params: { id: target.fixture('eventStream'), event_id: `${target.fixture('failedEvent')}x` },
  });
  expectRefused(exchange);
});

conformance('[§8 redeliver.path.event_id.length] redelivery refuses an existing event id with its last character removed', async ({ target }) => {
  target.writes();
  const exchange = await target.call('redeliver', {
    params: { id: target.fixture('eventStream'), event_id: target.fixture('failedEvent').slice(0, -1) },
  });
  expectRefused(exchange);
});

conformance('[§8 redeliver.path.event_id.length] redelivery refuses generated event ids one under or one over the length', async ({ target }) => {
  const streamId = target.fixture('eventStream');
  await fc.assert(
    fc.asyncProperty(fc.oneof(eventIdTooShort(), eventIdTooLong()), async (eventId) => {
      expectRefused(await target.call('redeliver', { params: { id: streamId, event_id: eventId } }));
    }),
  );
});
