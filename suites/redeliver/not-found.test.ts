// Observed: an unknown stream and an unknown event are told apart by their 404 messages (an unknown
// stream is "The requested stream does not exist."; the matrix checks that message on its rows).
// The two 404s are the matrix's own requests (a well-formed stream id, and event id, that name
// nothing), read here; their positive control is the redelivery of the failed event.
import { conformance, expectNotEqual, expectStatus } from '../../harness/index.ts';
import { matrixRowCall } from '../../harness/suite/matrix.ts';
import { successOf } from '../../harness/suite/requests.ts';

const redelivery = successOf('redeliver');
const noStream = matrixRowCall('redeliver', 'redeliver path.{id} near-value:unknown valid');
const noEvent = matrixRowCall('redeliver', 'redeliver path.{event_id} near-value:unknown valid');

conformance(
  '[§7 errors.404.stream] an unknown event is answered with another message than an unknown stream',
  {
    ...redelivery.plan,
    shared: [...(redelivery.plan.shared as string[]), ...(noStream.plan.shared as string[]), ...(noEvent.plan.shared as string[])],
  },
  async ({ target }) => {
    await target.control('the redelivery of the failed event', () => redelivery.send(target));
    const stream = await noStream.send(target);
    const event = await noEvent.send(target);
    const messageOf = (json: unknown) => (json as { message?: unknown } | undefined)?.message;
    expectStatus(event, 404);
    expectNotEqual(messageOf(event.json), messageOf(stream.json), 'message of an unknown event', { exchange: event });
  },
);
