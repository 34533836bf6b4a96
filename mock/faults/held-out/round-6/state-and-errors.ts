// What redelivery finds and how the interface refuses: an unknown event of a known stream
// dereferenced without a not-found branch, a state worked out from delivery attempts only retries record; a
// debugging stack left in error bodies, the scopes of a 403 written as a JSON list, an unknown
// vault connection answered 200 with null. Each changes the answer to one near miss; other requests
// are answered as before.
import { operationKeys } from '../../../../specs/index.ts';
import { jsonReply } from '../../../exchange.ts';
import { capture } from '../../support/captured.ts';
import { editReplies, isErrorBody, MANAGEMENT_ROUTES } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { answeredInstead } from '../support/answers.ts';

const SCOPE_MESSAGE = /^(Insufficient scope, expected any of: )(.+)$/;
const CONNECTION_NOT_FOUND = 'Connection not found';

function decoded(segment: string | undefined): string | undefined {
  try {
    return segment === undefined ? undefined : decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

export const stateAndErrorFaults = heldOutFamily([
  {
    id: 'ho6-unknown-event-dereferenced',
    clause: 'redeliver.errors.404.event',
    level: 'contract',
    bug: 'Redelivery reads event.status straight after events.get(id), its not-found branch lost in a refactoring: a well-formed event id that names no event of an existing stream fails with a TypeError, answered 500, instead of 404; an unknown stream, checked before, is still answered 404.',
    install: (app) => {
      const errors = capture(app, 'errors');
      editReplies(app, ['redeliver'], (reply) =>
        reply.status === 404 && isErrorBody(reply.body) && reply.body.message === errors().message('event_not_found')
          ? answeredInstead(reply, errors().reply('internal_error'))
          : reply,
      );
    },
  },
  {
    id: 'ho6-state-from-recorded-attempts',
    clause: 'redeliver.errors.409.state',
    level: 'contract',
    bug: "An event's state read from its latest recorded delivery attempt, defaulting to failed when it has none, while only retries are recorded: an event delivered at its first attempt is redelivered, 202, instead of 409; a pending event, whose attempt in flight is recorded, is still refused 409.",
    install: (app) => {
      const store = capture(app, 'store');
      editReplies(app, ['redeliver'], (reply, exchange) => {
        if (reply.status !== 409) return reply;
        const streamId = decoded(exchange.params.id);
        const eventId = decoded(exchange.params.event_id);
        const event = streamId === undefined || eventId === undefined ? undefined : store().event(streamId, eventId);
        if (event?.status !== 'delivered') return reply;
        store().recordRedelivery(event);
        return answeredInstead(reply, jsonReply(202, {}));
      });
    },
  },
  {
    id: 'ho6-error-bodies-carry-stack',
    clause: 'errors.body.shape',
    level: 'observed',
    bug: 'The error handler left in its development setting, which adds the error\'s stack to the body: every error of the management interface carries a "stack" member beside statusCode, error and message; the status and the other members are unchanged.',
    install: (app) =>
      editReplies(app, MANAGEMENT_ROUTES, (reply) =>
        isErrorBody(reply.body)
          ? {
              ...reply,
              body: { ...reply.body, stack: `Error: ${String(reply.body.message)}\n    at handle (/srv/app/routes/index.js:42:11)` },
            }
          : reply,
      ),
  },
  {
    id: 'ho6-403-scopes-as-json-list',
    clause: 'errors.403.scope-named',
    level: 'observed',
    bug: 'The 403 message built as `expected any of: ${JSON.stringify(scopes)}` where scopes.join(",") was meant: every insufficient-scope refusal says expected any of: ["update:event_deliveries"] with brackets and quotes instead of the bare scope; status and errorCode are unchanged.',
    install: (app) =>
      editReplies(app, operationKeys, (reply) => {
        if (reply.status !== 403 || !isErrorBody(reply.body) || typeof reply.body.message !== 'string') return reply;
        const match = SCOPE_MESSAGE.exec(reply.body.message);
        return match ? { ...reply, body: { ...reply.body, message: `${match[1]!}${JSON.stringify(match[2]!.split(','))}` } } : reply;
      }),
  },
  {
    id: 'ho6-vault-unknown-answered-null',
    clause: 'errors.404.vault',
    level: 'observed',
    bug: 'The vault read serialises what its lookup returns, null for an unknown id, without a not-found branch: a well-formed id that names no connection is answered 200 with the body null instead of 404 "Connection not found"; a malformed id is still refused 400.',
    install: (app) =>
      editReplies(app, ['vault'], (reply) =>
        reply.status === 404 && isErrorBody(reply.body) && reply.body.message === CONNECTION_NOT_FOUND
          ? answeredInstead(reply, jsonReply(200, null))
          : reply,
      ),
  },
]);
