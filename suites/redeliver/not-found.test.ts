// Spec section 7: 404 when the event stream does not exist, and when the event does not exist.
// Unknown ids are realistic (right prefix, alphabet and length), so a 404 is about existence.
import { cases, conformance, expectNotEqual, expectObservedError, expectStatus, fixture } from '../../harness/index.ts';
import { eventId, streamId, unknownIdOf } from '../../generators/index.ts';
import { refusalPlan, refusals, sendRefusal } from '../refusals.ts';
import { sharedRequest } from '../requests.ts';

const withGenerated = (refusal: (typeof refusals)['unknownStream' | 'unknownEvent']) => ({ ...refusalPlan(refusal), requests: cases(0) });

conformance(
  '[§7 redeliver.errors.404.stream] redelivery answers 404 for a stream that does not exist',
  withGenerated(refusals.unknownStream),
  async ({ target }) => {
    expectStatus(await sendRefusal(target, refusals.unknownStream), 404);
    const failedEvent = target.fixture('failedEvent');
    await target.cases([], unknownIdOf(streamId(), [target.fixture('eventStream')]), async (id) => {
      expectStatus(await target.call('redeliver', { params: { id, event_id: failedEvent } }), 404);
    });
  },
);

conformance(
  '[§7 redeliver.errors.404.event] redelivery answers 404 for an event that does not exist',
  withGenerated(refusals.unknownEvent),
  async ({ target }) => {
    expectStatus(await sendRefusal(target, refusals.unknownEvent), 404);
    const stream = target.fixture('eventStream');
    await target.cases(
      [],
      unknownIdOf(eventId(), [target.fixture('failedEvent'), target.fixture('notRedeliverableEvent')]),
      async (event_id) => {
        expectStatus(await target.call('redeliver', { params: { id: stream, event_id } }), 404);
      },
    );
  },
);

conformance(
  '[§7 errors.404.stream] an unknown stream is answered "The requested stream does not exist."',
  refusalPlan(refusals.unknownStream),
  async ({ target }) => {
    expectObservedError(await sendRefusal(target, refusals.unknownStream), 'stream_not_found');
  },
);

conformance(
  '[§7 errors.404.stream] an unknown event is answered with another message than an unknown stream',
  {
    operation: 'redeliver',
    needs: [...refusals.unknownStream.needs, fixture('notRedeliverableEvent')],
    requests: 0,
    shared: [sharedRequest.refusal(refusals.unknownStream.what), sharedRequest.refusal(refusals.unknownEvent.what)],
  },
  async ({ target }) => {
    const noStream = await sendRefusal(target, refusals.unknownStream);
    const noEvent = await sendRefusal(target, refusals.unknownEvent);
    const messageOf = (json: unknown) => (json as { message?: unknown } | undefined)?.message;
    expectStatus(noEvent, 404);
    expectNotEqual(messageOf(noEvent.json), messageOf(noStream.json), 'message of an unknown event', { exchange: noEvent });
  },
);
