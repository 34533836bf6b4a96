// State and the errors: the event read by a Jooby service with a jOOQ query that lost its event-id
// condition, a Rails redelivery authorized by CanCanCan against a stream that was not found, a hapi
// route whose Joi schema checks that the event exists with an external rule; and the observed
// rules: errors sent by an Elysia app with its JSON content type, which has no charset, an unknown
// connection answered by an axum handler with a bare StatusCode, and the 403 message written by a Common Lisp (Hunchentoot) service with format's ~{~a,~}. Each changes the
// answer to its near miss; the common answers are as before.
import { observed } from '../../../../specs/index.ts';
import type { Exchange } from '../../../exchange.ts';
import { jsonReply } from '../../../exchange.ts';
import { capture } from '../../support/captured.ts';
import { editReplies, editRequests, isErrorBody, MANAGEMENT_ROUTES } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { answeredInstead, headerOf, withHeader } from '../support/answers.ts';

const VAULT_NOT_FOUND = observed.errors.vault_connection_not_found!.message!;
const STREAM_NOT_FOUND = observed.errors.stream_not_found!.message!;
/** The mock's message for an unknown event of a known stream. */
const EVENT_NOT_FOUND = 'The requested event does not exist.';
const SCOPE_PREFIX = observed.errors.insufficient_scope!.prefix!;
/** CanCanCan's default AccessDenied message. */
const CANCAN_MESSAGE = 'You are not authorized to access this page.';
/** Elysia's content type for an object it serialises. */
const ELYSIA_JSON = 'application/json';

const decodedOnce = (raw: string): string | undefined => {
  try {
    return decodeURIComponent(raw);
  } catch {
    return undefined;
  }
};
const paramOf = (exchange: Exchange, name: string) =>
  exchange.params[name] === undefined ? undefined : decodedOnce(exchange.params[name]);

export const stateAndErrorFaults = heldOutFamily([
  {
    id: 'ho30-redeliver-jooq-lost-event-condition',
    clause: 'redeliver.errors.409.state',
    level: 'contract',
    bug: 'A Jooby service that checks the event exists first, then picks what to redeliver with selectFrom(EVENTS).where(EVENTS.STREAM_ID.eq(streamId)).and(EVENTS.STATUS.eq(FAILED)).fetchAny(), its EVENTS.ID.eq(eventId) condition lost in a refactoring: a delivered or pending event of a stream that has a failed event is answered 202 (the failed one is redelivered) instead of 409; an unknown event is still 404, the failed one 202.',
    install: (app) => {
      const store = capture(app, 'store');
      editRequests(app, 'redeliver', (exchange) => {
        const streamId = paramOf(exchange, 'id');
        const eventId = paramOf(exchange, 'event_id');
        if (streamId === undefined || eventId === undefined) return exchange;
        const event = store().event(streamId, eventId);
        if (!event || event.status === 'failed') return exchange;
        const stream = store().stream(streamId);
        const failed = stream && [...stream.events.values()].find((e) => e.status === 'failed');
        return failed ? { ...exchange, params: { ...exchange.params, event_id: encodeURIComponent(failed.id) } } : exchange;
      });
    },
  },
  {
    id: 'ho30-unknown-stream-cancancan-403',
    clause: 'redeliver.errors.404.stream',
    level: 'contract',
    bug: `A Rails redelivery action written @stream = EventStream.find_by(id: params[:id]); authorize! :redeliver, @stream, and CanCanCan's rules (can :redeliver, EventStream) match no nil subject, so AccessDenied (rescued as 403) comes before the 404 the next line would give: an unknown stream is answered 403 "${CANCAN_MESSAGE}" instead of 404; an unknown event of an existing stream is still 404.`,
    install: (app) =>
      editReplies(app, ['redeliver'], (reply) =>
        reply.status === 404 && isErrorBody(reply.body) && reply.body.message === STREAM_NOT_FOUND
          ? answeredInstead(reply, jsonReply(403, { statusCode: 403, error: 'Forbidden', message: CANCAN_MESSAGE }))
          : reply,
      ),
  },
  {
    id: 'ho30-unknown-event-hapi-joi-external',
    clause: 'redeliver.errors.404.event',
    level: 'contract',
    bug: 'A hapi route whose params schema is Joi.object({ id: ..., event_id: Joi.string().length(26).external(eventExists) }), the lookup written as a Joi external rule, so a missing event fails validation: an unknown event of an existing stream is answered 400 invalid_uri instead of 404; an unknown stream (looked up in the handler) is still 404, a failed event 202.',
    install: (app) => {
      const errors = capture(app, 'errors');
      editReplies(app, ['redeliver'], (reply) =>
        reply.status === 404 && isErrorBody(reply.body) && reply.body.message === EVENT_NOT_FOUND
          ? answeredInstead(reply, errors().reply('invalid_uri', `'"event_id" does not exist' on property event_id`))
          : reply,
      );
    },
  },
  {
    id: 'ho30-errors-elysia-json-without-charset',
    clause: 'errors.body.content-type',
    level: 'observed',
    bug: `An Elysia app whose onError hook returns the error body as an object, which Elysia sends typed "${ELYSIA_JSON}" with no charset: every error of the management interface (400, 401, 403, 404, 405, 409, 429) is typed "${ELYSIA_JSON}" instead of "application/json; charset=utf-8"; the bodies, and the successes, are as before.`,
    install: (app) =>
      editReplies(app, MANAGEMENT_ROUTES, (reply) =>
        reply.status >= 400 && headerOf(reply, 'content-type')?.startsWith(ELYSIA_JSON)
          ? withHeader(reply, 'content-type', ELYSIA_JSON)
          : reply,
      ),
  },
  {
    id: 'ho30-vault-404-axum-status-only',
    clause: 'errors.404.vault',
    level: 'observed',
    bug: 'A Rust (axum) read handler returning Result<Json<VaultConnection>, StatusCode> whose lookup ends with .ok_or(StatusCode::NOT_FOUND)?, and a bare StatusCode becomes a response with no body and no content type: an unknown connection is answered 404 with an empty body instead of {"statusCode": 404, ..., "message": "Connection not found"}; the other errors go through the service\'s error type as before.',
    install: (app) =>
      editReplies(app, ['vault'], (reply) =>
        reply.status === 404 && isErrorBody(reply.body) && reply.body.message === VAULT_NOT_FOUND
          ? {
              status: 404,
              headers: Object.fromEntries(Object.entries(reply.headers).filter(([name]) => name.toLowerCase() !== 'content-type')),
            }
          : reply,
      ),
  },
  {
    id: 'ho30-403-lisp-format-trailing-comma',
    clause: 'errors.403.scope-named',
    level: 'observed',
    bug: `A Common Lisp (Hunchentoot) service that writes the 403 message with (format nil "${SCOPE_PREFIX}~{~a,~}" scopes), where ~{~a~^,~} was meant (~^ leaves the loop before the last separator): the message is "${SCOPE_PREFIX}<scope>," with a comma after the last scope; the status, the errorCode and the scope named are as before.`,
    install: (app) =>
      editReplies(app, MANAGEMENT_ROUTES, (reply) =>
        reply.status === 403 &&
        isErrorBody(reply.body) &&
        typeof reply.body.message === 'string' &&
        reply.body.message.startsWith(SCOPE_PREFIX)
          ? { ...reply, body: { ...reply.body, message: `${reply.body.message},` } }
          : reply,
      ),
  },
]);
