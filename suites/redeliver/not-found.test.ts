// Spec section 7: 404 when the event stream does not exist, and when the event does not exist.
// Unknown ids are realistic (right prefix, alphabet and length), so a 404 is about existence.
import fc from 'fast-check';
import { conformance, expectClause, expectObservedError, expectStatus } from '../../harness/index.ts';
import { eventId, streamId, unknownIdOf } from '../../generators/index.ts';

conformance('[§7 redeliver.errors.404.stream] redelivery answers 404 for a stream that does not exist', async ({ target }) => {
  const failedEvent = target.fixture('failedEvent');
  await fc.assert(
    fc.asyncProperty(unknownIdOf(streamId(), [target.fixture('eventStream')]), async (id) => {
      expectStatus(await target.call('redeliver', { params: { id, event_id: failedEvent } }), 404);
    }),
  );
});

conformance('[§7 redeliver.errors.404.event] redelivery answers 404 for an event that does not exist', async ({ target }) => {
  const stream = target.fixture('eventStream');
  const known = [target.fixture('failedEvent'), target.fixture('notRedeliverableEvent')];
  await fc.assert(
    fc.asyncProperty(unknownIdOf(eventId(), known), async (event_id) => {
      expectStatus(await target.call('redeliver', { params: { id: stream, event_id } }), 404);
    }),
  );
});

conformance('[§7 errors.404.stream] an unknown stream is answered "The requested stream does not exist."', async ({ target }) => {
  const [id] = fc.sample(unknownIdOf(streamId(), [target.fixture('eventStream')]), { numRuns: 1, seed: target.settings.seed });
  const exchange = await target.call('redeliver', { params: { id: id!, event_id: target.fixture('failedEvent') } });
  expectObservedError(exchange, 'stream_not_found');
});

conformance('[§7 errors.404.stream] an unknown event is answered with another message than an unknown stream', async ({ target }) => {
  const [streamIdValue] = fc.sample(unknownIdOf(streamId(), [target.fixture('eventStream')]), { numRuns: 1, seed: target.settings.seed });
  const [eventIdValue] = fc.sample(unknownIdOf(eventId(), [target.fixture('failedEvent')]), { numRuns: 1, seed: target.settings.seed });
  const noStream = await target.call('redeliver', { params: { id: streamIdValue!, event_id: target.fixture('failedEvent') } });
  const noEvent = await target.call('redeliver', { params: { id: target.fixture('eventStream'), event_id: eventIdValue! } });
  const messageOf = (json: unknown) => (json as { message?: unknown } | undefined)?.message;
  expectClause({
    pass: noEvent.status === 404 && messageOf(noEvent.json) !== messageOf(noStream.json),
    expected: `404 with a message other than ${JSON.stringify(messageOf(noStream.json))}`,
    actual: `${noEvent.status} with message ${JSON.stringify(messageOf(noEvent.json))}`,
    exchange: noEvent,
  });
});
