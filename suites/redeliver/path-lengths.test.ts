// Spec section 8: both path ids of a redelivery are exactly 26 characters. Ids one character off
// that are made from existing ones catch a server that truncates or prefix-matches (a target that
// wrongly accepts them would write: opt-in); generated realistic ids of the wrong length, on
// request, catch one that lets any length through.
import fc from 'fast-check';
import { cases, conformance, expectRefused, fixture, generatedCases, writes } from '../../harness/index.ts';
import { eventIdTooLong, eventIdTooShort, streamIdTooLong, streamIdTooShort } from '../../generators/index.ts';
import { refusalPlan, refusals, sendRefusal } from '../refusals.ts';

conformance(
  '[§8 redeliver.path.id.length] redelivery refuses an existing stream id with its last character removed',
  refusalPlan(refusals.streamIdOneShort),
  async ({ target }) => {
    expectRefused(await sendRefusal(target, refusals.streamIdOneShort));
  },
);

conformance(
  '[§8 redeliver.path.event_id.length] redelivery refuses an existing event id with one character added',
  refusalPlan(refusals.eventIdOneLong),
  async ({ target }) => {
    expectRefused(await sendRefusal(target, refusals.eventIdOneLong));
  },
);

const existingIds = { needs: [fixture('eventStream'), fixture('failedEvent'), writes], requests: 1 };

conformance(
  '[§8 redeliver.path.id.length] redelivery refuses an existing stream id with one character added',
  existingIds,
  async ({ target }) => {
    expectRefused(
      await target.call('redeliver', { params: { id: `${target.fixture('eventStream')}x`, event_id: target.fixture('failedEvent') } }),
    );
  },
);

conformance(
  '[§8 redeliver.path.event_id.length] redelivery refuses an existing event id with its last character removed',
  existingIds,
  async ({ target }) => {
    expectRefused(
      await target.call('redeliver', {
        params: { id: target.fixture('eventStream'), event_id: target.fixture('failedEvent').slice(0, -1) },
      }),
    );
  },
);

const generated = {
  needs: [fixture('eventStream'), fixture('failedEvent'), generatedCases],
  requests: cases(0),
};

conformance(
  '[§8 redeliver.path.id.length] redelivery refuses generated stream ids one under or one over the length',
  generated,
  async ({ target }) => {
    const eventId = target.fixture('failedEvent');
    await target.cases([], fc.oneof(streamIdTooShort(), streamIdTooLong()), async (id) => {
      expectRefused(await target.call('redeliver', { params: { id, event_id: eventId } }));
    });
  },
);

conformance(
  '[§8 redeliver.path.event_id.length] redelivery refuses generated event ids one under or one over the length',
  generated,
  async ({ target }) => {
    const streamId = target.fixture('eventStream');
    await target.cases([], fc.oneof(eventIdTooShort(), eventIdTooLong()), async (eventId) => {
      expectRefused(await target.call('redeliver', { params: { id: streamId, event_id: eventId } }));
    });
  },
);
