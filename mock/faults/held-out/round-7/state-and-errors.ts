// What redelivery finds and how the interface refuses: an event held in a retrying state after its
// first redelivery, a stream locked while it has an event in flight; a 403 given a generic code, a
// 404 message with the id spliced in, and error bodies with errorCode null. Each changes the answer
// to one near miss; other requests are answered as before.
import { capture } from '../../support/captured.ts';
import { editReplies, isErrorBody, MANAGEMENT_ROUTES } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { answeredInstead } from '../support/answers.ts';

const STREAM_MISSING = 'The requested stream does not exist.';

function decoded(segment: string | undefined): string | undefined {
  try {
    return segment === undefined ? undefined : decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

export const stateAndErrorFaults = heldOutFamily([
  {
    id: 'ho7-redelivered-event-left-retrying',
    clause: 'redeliver.success.202',
    level: 'contract',
    bug: 'An accepted redelivery moves the event to a "retrying" state that is never moved back when the retry fails, and only failed events may be redelivered: the second redelivery of a failed event is refused 409 instead of 202; the first is still accepted.',
    install: (app) => {
      const errors = capture(app, 'errors');
      const retrying = new Set<string>();
      editReplies(app, ['redeliver'], (reply, exchange) => {
        if (reply.status !== 202) return reply;
        const key = `${decoded(exchange.params.id) ?? ''}/${decoded(exchange.params.event_id) ?? ''}`;
        if (retrying.has(key)) return answeredInstead(reply, errors().reply('event_not_redeliverable'));
        retrying.add(key);
        return reply;
      });
    },
  },
  {
    id: 'ho7-stream-locked-while-pending',
    clause: 'redeliver.success.202',
    level: 'contract',
    bug: 'Redelivery takes a per-stream lock and treats any pending event of the stream as holding it (pending.length > 0 where pending.includes(event) was meant): the failed event of a stream that also has a pending event is refused 409 instead of 202; a failed event of a stream with nothing pending is still accepted.',
    install: (app) => {
      const store = capture(app, 'store');
      const errors = capture(app, 'errors');
      editReplies(app, ['redeliver'], (reply, exchange) => {
        const stream = reply.status === 202 ? store().stream(decoded(exchange.params.id) ?? '') : undefined;
        const pending = stream ? [...stream.events.values()].some((event) => event.status === 'pending') : false;
        return pending ? answeredInstead(reply, errors().reply('event_not_redeliverable')) : reply;
      });
    },
  },
  {
    id: 'ho7-403-generic-error-code',
    clause: 'errors.403.scope-named',
    level: 'observed',
    bug: 'The 403\'s errorCode taken from a status-to-code table ("forbidden") instead of the cause: every insufficient-scope refusal carries errorCode "forbidden" instead of "insufficient_scope"; its message and status are unchanged.',
    install: (app) =>
      editReplies(app, MANAGEMENT_ROUTES, (reply) =>
        reply.status === 403 && isErrorBody(reply.body) ? { ...reply, body: { ...reply.body, errorCode: 'forbidden' } } : reply,
      ),
  },
  {
    id: 'ho7-stream-missing-message-names-id',
    clause: 'errors.404.stream',
    level: 'observed',
    bug: `The unknown-stream message built from a template with the id spliced in ("The requested stream <id> does not exist."): every unknown stream is answered with that message instead of "${STREAM_MISSING}"; the status is unchanged.`,
    install: (app) =>
      editReplies(app, ['redeliver'], (reply, exchange) =>
        reply.status === 404 && isErrorBody(reply.body) && reply.body.message === STREAM_MISSING
          ? { ...reply, body: { ...reply.body, message: `The requested stream ${decoded(exchange.params.id) ?? ''} does not exist.` } }
          : reply,
      ),
  },
  {
    id: 'ho7-error-code-null-when-absent',
    clause: 'errors.body.shape',
    level: 'observed',
    bug: 'Error bodies serialised from a class whose errorCode field defaults to null, written out as it stands: every error without a code (a 404, a 401 for a missing token) carries "errorCode": null instead of no errorCode; errors with a code are unchanged.',
    install: (app) =>
      editReplies(app, MANAGEMENT_ROUTES, (reply) =>
        isErrorBody(reply.body) && !('errorCode' in reply.body) ? { ...reply, body: { ...reply.body, errorCode: null } } : reply,
      ),
  },
]);
