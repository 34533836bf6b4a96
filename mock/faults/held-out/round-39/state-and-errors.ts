// State and errors, where a first request changes how a later one is judged: a SQLAlchemy session
// whose identity map finds an event by its id alone; a redeliverability flag kept per stream.
import { capture } from '../../support/captured.ts';
import { heldOutFamily } from '../held-out-fault.ts';

const ACCEPTED = 202;
const CONFLICT = 409;

export const stateAndErrorFaults = heldOutFamily([
  {
    id: 'ho39-event-identity-map-across-streams',
    clause: 'redeliver.errors.404.event',
    level: 'contract',
    bug: 'A Python (SQLAlchemy) redelivery service on one long-lived Session that finds the event with session.get(Event, event_id) first, which answers from the identity map by primary key alone, and only on a miss runs the query filtered on the stream: once a failed event has been redelivered under its own stream, the same event id under another existing stream is redelivered (202) instead of 404; before that first redelivery it is refused 404 as it should be.',
    install: (app) => {
      const store = capture(app, 'store');
      const loaded = new Map<string, string>();
      app.wrapRoute('redeliver', (next) => async (exchange) => {
        const { id, event_id: eventId } = exchange.params;
        const home = eventId === undefined ? undefined : loaded.get(eventId);
        const rerouted =
          home !== undefined && id !== undefined && id !== home && store().stream(id) !== undefined
            ? { ...exchange, params: { ...exchange.params, id: home } }
            : exchange;
        const reply = await next(rerouted);
        if (reply.status === ACCEPTED && id !== undefined && eventId !== undefined && rerouted === exchange) loaded.set(eventId, id);
        return reply;
      });
    },
  },
  {
    id: 'ho39-redeliverable-flag-per-stream',
    clause: 'redeliver.errors.409.state',
    level: 'contract',
    bug: 'A Node redelivery service that keeps a Map of streams "in redelivery" (set when one of the stream\'s failed events is accepted, to batch the retries) and, for a stream in it, skips the event\'s own state guard, taking the whole stream for a failing one: after a failed event of a stream has been redelivered, a delivered or pending event of that stream is accepted (202) instead of 409; before it, and on the other stream, such an event is still refused 409.',
    install: (app) => {
      const inRedelivery = new Set<string>();
      app.wrapRoute('redeliver', (next) => async (exchange) => {
        const reply = await next(exchange);
        const id = exchange.params.id;
        if (id === undefined) return reply;
        if (reply.status === ACCEPTED) inRedelivery.add(id);
        return reply.status === CONFLICT && inRedelivery.has(id) ? { ...reply, status: ACCEPTED, body: {} } : reply;
      });
    },
  },
]);
