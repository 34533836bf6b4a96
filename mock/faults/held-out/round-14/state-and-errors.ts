// State, and how the interface refuses: the event stream looked up under a case-insensitive
// collation; and the observed rules: an unknown stream answered with the unknown event's message,
// the two lookups made as one query, a 429 with the rate-limit middleware's default message, the
// vault's not-found message with the id appended, and error written as the error class's name.
// Each changes one answer; the others are as before.
import { capture } from '../../support/captured.ts';
import { MANAGEMENT_ROUTES, editReplies, isErrorBody } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';

/** express-rate-limit's default message. */
const LIMITER_DEFAULT_MESSAGE = 'Too many requests, please try again later.';

export const stateAndErrorFaults = heldOutFamily([
  {
    id: 'ho14-stream-id-collation-folded',
    clause: 'redeliver.errors.404.stream',
    level: 'contract',
    bug: 'Event streams looked up in a table whose id column has a case-insensitive collation (utf8mb4_general_ci), and the event found under the row: a stream id with one letter in the other case, a stream that does not exist, is redelivered (202) instead of 404; a stream id with a character replaced is still 404.',
    install: (app) => {
      const store = capture(app, 'store');
      app.wrapRoute('redeliver', (next) => (exchange) => {
        const id = exchange.params.id;
        if (id === undefined || store().stream(id) !== undefined) return next(exchange);
        const found = store()
          .streams()
          .find((stream) => stream.id.toLowerCase() === id.toLowerCase());
        return next(found ? { ...exchange, params: { ...exchange.params, id: found.id } } : exchange);
      });
    },
  },
  {
    id: 'ho14-unknown-stream-event-message',
    clause: 'errors.404.stream',
    level: 'observed',
    bug: 'The stream and its event fetched by one query (SELECT ... FROM events JOIN streams ... WHERE stream_id = ? AND event_id = ?) whose empty result is always reported as a missing event: an unknown stream is answered 404 "The requested event does not exist." instead of the stream\'s message; an unknown event under a known stream is answered as before.',
    install: (app) => {
      const errors = capture(app, 'errors');
      editReplies(app, ['redeliver'], (reply) =>
        reply.status === 404 && isErrorBody(reply.body) && reply.body.message === errors().message('stream_not_found')
          ? { ...reply, body: { ...reply.body, message: errors().message('event_not_found') } }
          : reply,
      );
    },
  },
  {
    id: 'ho14-429-library-default-message',
    clause: 'errors.429.body',
    level: 'observed',
    bug: `The 429 body's message left at the rate-limit middleware's default ("${LIMITER_DEFAULT_MESSAGE}", express-rate-limit's) where the service writes its own: every 429 has that message instead of "Global limit has been reached"; statusCode, error and errorCode are as before.`,
    install: (app) =>
      editReplies(app, MANAGEMENT_ROUTES, (reply) =>
        reply.status === 429 && isErrorBody(reply.body) ? { ...reply, body: { ...reply.body, message: LIMITER_DEFAULT_MESSAGE } } : reply,
      ),
  },
  {
    id: 'ho14-vault-not-found-names-id',
    clause: 'errors.404.vault',
    level: 'observed',
    bug: 'The not-found message built from a template that appends the id asked for (`Connection not found: ${id}`), for the logs\' sake: an unknown connection is answered 404 "Connection not found: ac_..." instead of "Connection not found"; the status and errorCode are as before.',
    install: (app) => {
      const errors = capture(app, 'errors');
      editReplies(app, ['vault'], (reply, exchange) =>
        reply.status === 404 && isErrorBody(reply.body) && reply.body.message === errors().message('vault_connection_not_found')
          ? { ...reply, body: { ...reply.body, message: `${reply.body.message}: ${exchange.params.id ?? ''}` } }
          : reply,
      );
    },
  },
  {
    id: 'ho14-error-phrase-from-class-name',
    clause: 'errors.body.shape',
    level: 'observed',
    bug: 'error written from the thrown error\'s class name (http-errors\' err.name) where the reason phrase is due: a 404 has error "NotFoundError" instead of "Not Found", a 403 "ForbiddenError", a 400 "BadRequestError"; statusCode, message and errorCode are as before.',
    install: (app) =>
      editReplies(app, MANAGEMENT_ROUTES, (reply) =>
        reply.status >= 400 && isErrorBody(reply.body) && typeof reply.body.error === 'string'
          ? { ...reply, body: { ...reply.body, error: `${reply.body.error.replace(/[^A-Za-z]/g, '')}Error` } }
          : reply,
      ),
  },
]);
