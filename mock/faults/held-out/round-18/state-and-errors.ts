// State and errors: one redelivery lock per tenant instead of per event, and a redelivered event
// dropped from its stream; and the observed rules: a 405 answered as text/plain by the router, and
// statusCode written as text by the fallback 404. Each changes the answer to its near miss; the
// first redelivery and the common refusals are answered as before.
import { capture } from '../../support/captured.ts';
import { editReplies, isErrorBody, replacing } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';

const ACCEPTED = 202;

export const stateAndErrorFaults = heldOutFamily([
  {
    id: 'ho18-redelivery-lock-per-tenant',
    clause: 'redeliver.success.202',
    level: 'contract',
    bug: 'The redelivery lock keyed by the tenant instead of by the event (one "redelivery in progress" row per tenant, never released): once an event of one stream was redelivered, a failed event of another stream is refused 409 instead of 202; a repeat in the first stream is accepted as before.',
    install: (app) => {
      const errors = capture(app, 'errors');
      let lockedBy: string | undefined;
      editReplies(app, ['redeliver'], (reply, exchange) => {
        if (reply.status !== ACCEPTED) return reply;
        const stream = exchange.params.id;
        if (lockedBy === undefined) lockedBy = stream;
        return stream === lockedBy ? reply : replacing(reply, errors().reply('event_not_redeliverable'));
      });
    },
  },
  {
    id: 'ho18-redelivered-event-dropped',
    clause: 'redeliver.success.202',
    level: 'contract',
    bug: 'A redelivered event moved out of the stream\'s store into a delivery queue (removed, not copied): the same failed event redelivered again is answered 404 "event does not exist" instead of 202; its first redelivery is accepted as before.',
    install: (app) => {
      const errors = capture(app, 'errors');
      const moved = new Set<string>();
      editReplies(app, ['redeliver'], (reply, exchange) => {
        if (reply.status !== ACCEPTED) return reply;
        const key = `${exchange.params.id}\n${exchange.params.event_id}`;
        if (!moved.has(key)) {
          moved.add(key);
          return reply;
        }
        return replacing(reply, errors().reply('event_not_found'));
      });
    },
  },
  {
    id: 'ho18-405-as-text-plain',
    clause: 'errors.body.content-type',
    level: 'observed',
    bug: 'A method the path does not have answered by the router\'s own default (res.status(405).type("text").send(...)) before the JSON error handler: Content-Type text/plain instead of application/json; the status is 405 as before.',
    install: (app) =>
      editReplies(app, ['method-not-allowed'], (reply) =>
        reply.status === 405 ? { ...reply, headers: { ...reply.headers, 'content-type': 'text/plain; charset=utf-8' } } : reply,
      ),
  },
  {
    id: 'ho18-fallback-404-status-code-text',
    clause: 'errors.body.shape',
    level: 'observed',
    bug: 'The catch-all 404 of an unknown path built from the framework\'s route table, whose status is a string: "statusCode": "404" instead of 404 in that body only; the 404s of the operations carry a number as before.',
    install: (app) =>
      editReplies(app, ['not-found'], (reply) =>
        isErrorBody(reply.body) ? { ...reply, body: { ...reply.body, statusCode: String(reply.body.statusCode) } } : reply,
      ),
  },
]);
