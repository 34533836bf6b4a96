// State and errors: an event's state compared by a PostgreSQL enum's order; and the observed rules:
// error bodies with a snake_case status_code (a Rails or Elixir serializer's convention), and the
// unknown stream's 404 answered with Ecto's NoResultsError message. Each changes the answer to its
// near miss; the common answers are as before.
import { jsonReply } from '../../../exchange.ts';
import { capture } from '../../support/captured.ts';
import { editReplies, isErrorBody, MANAGEMENT_ROUTES } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { answeredInstead } from '../support/answers.ts';

/** The event_status enum as it was declared: its order is what < and <= compare. */
const STATUS_ORDER = ['pending', 'failed', 'delivered'];
const decodedOnce = (raw: string | undefined): string | undefined => {
  if (raw === undefined) return undefined;
  try {
    return decodeURIComponent(raw);
  } catch {
    return undefined;
  }
};

export const stateAndErrorFaults = heldOutFamily([
  {
    id: 'ho20-state-compared-by-enum-order',
    clause: 'redeliver.errors.409.state',
    level: 'contract',
    bug: "The state check written in SQL as status <= 'failed' over a PostgreSQL enum declared (pending, failed, delivered), so compared by declaration order: a pending event is redelivered 202 instead of 409; a delivered event is still refused 409.",
    install: (app) => {
      const store = capture(app, 'store');
      editReplies(app, ['redeliver'], (reply, exchange) => {
        if (reply.status !== 409) return reply;
        const stream = decodedOnce(exchange.params.id);
        const eventId = decodedOnce(exchange.params.event_id);
        const event = stream === undefined || eventId === undefined ? undefined : store().event(stream, eventId);
        if (!event || STATUS_ORDER.indexOf(event.status) > STATUS_ORDER.indexOf('failed')) return reply;
        store().recordRedelivery(event);
        return answeredInstead(reply, jsonReply(202, {}));
      });
    },
  },
  {
    id: 'ho20-error-status-code-snake-case',
    clause: 'errors.body.shape',
    level: 'observed',
    bug: 'Error bodies written by a serializer with a snake_case naming policy: {"status_code": 404, "error": ..., "message": ...} instead of "statusCode" (and the same for every status); error, message and errorCode are as before.',
    install: (app) =>
      editReplies(app, MANAGEMENT_ROUTES, (reply) => {
        if (!isErrorBody(reply.body)) return reply;
        const { statusCode, ...rest } = reply.body;
        return { ...reply, body: { status_code: statusCode, ...rest } };
      }),
  },
  {
    id: 'ho20-stream-404-ecto-message',
    clause: 'errors.404.stream',
    level: 'observed',
    bug: 'The unknown stream found with Repo.get! and the Ecto.NoResultsError let through to the error view: its 404 says "expected at least one result but got none in query" instead of "The requested stream does not exist."; the status and the other 404s are as before.',
    install: (app) =>
      editReplies(app, ['redeliver'], (reply) =>
        reply.status === 404 && isErrorBody(reply.body) && reply.body.message === 'The requested stream does not exist.'
          ? { ...reply, body: { ...reply.body, message: 'expected at least one result but got none in query' } }
          : reply,
      ),
  },
]);
