// State, and how the interface refuses: a cache of queued redeliveries keyed by the event id
// alone, and a per-event lock that refuses a redelivery while another of the same event is in
// flight; and the observed rules: a 403 naming the scopes of every operation, the expired-token
// message of a JWT library, and a path error naming the parameter in camel case. Each changes one
// answer; the others are as before.
import { cards } from '../../../../specs/cards/index.ts';
import { jsonReply } from '../../../exchange.ts';
import { capture } from '../../support/captured.ts';
import { MANAGEMENT_ROUTES, editReplies, isErrorBody } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { answeredInstead } from '../support/answers.ts';

const ALL_SCOPES = Object.values(cards).map((card) => card.scope.value);
/** jsonwebtoken's TokenExpiredError message. */
const LIBRARY_EXPIRED_MESSAGE = 'jwt expired';
/** How long a redelivery holds its event's lock: the round trip of queueing it. */
const QUEUE_MS = 30;

const camelCase = (name: string) => name.replace(/_([a-z])/g, (_whole, letter: string) => letter.toUpperCase());

export const stateAndErrorFaults = heldOutFamily([
  {
    id: 'ho13-queued-redeliveries-keyed-by-event',
    clause: 'redeliver.errors.404.event',
    level: 'contract',
    bug: 'A cache of redeliveries already queued, checked before the lookup so that a retried request is answered 202 at once, keyed by the event id alone (event ids are unique, the author reasoned): once a failed event has been redelivered, the same event id under another existing stream is answered 202 instead of 404; an event id never redelivered is still refused 404 there.',
    install: (app) => {
      const errors = capture(app, 'errors');
      const queued = new Set<string>();
      editReplies(app, ['redeliver'], (reply, exchange) => {
        const event = exchange.params.event_id;
        if (event === undefined) return reply;
        if (reply.status === 202) queued.add(event);
        return reply.status === 404 &&
          isErrorBody(reply.body) &&
          reply.body.message === errors().message('event_not_found') &&
          queued.has(event)
          ? answeredInstead(reply, jsonReply(202, {}))
          : reply;
      });
    },
  },
  {
    id: 'ho13-concurrent-redelivery-refused',
    clause: 'redeliver.success.202',
    level: 'contract',
    bug: `Redeliveries of one event serialised by a lock that refuses instead of waiting (a "try lock"), held for the ${QUEUE_MS} ms it takes to queue the delivery: two redeliveries of the same failed event sent at once are answered 202 and 409 instead of 202 twice; the same two sent one after the other are both answered 202.`,
    install: (app) => {
      const errors = capture(app, 'errors');
      const locked = new Set<string>();
      app.wrapRoute('redeliver', (next) => async (exchange) => {
        const key = `${exchange.params.id}/${exchange.params.event_id}`;
        if (locked.has(key)) {
          const reply = await next(exchange);
          return reply.status === 202 ? answeredInstead(reply, errors().reply('event_not_redeliverable')) : reply;
        }
        locked.add(key);
        try {
          const reply = await next(exchange);
          if (reply.status === 202) await new Promise((resolve) => setTimeout(resolve, QUEUE_MS));
          return reply;
        } finally {
          locked.delete(key);
        }
      });
    },
  },
  {
    id: 'ho13-403-names-every-scope',
    clause: 'errors.403.scope-named',
    level: 'observed',
    bug: `The 403 message built from the scope list of the API's route table instead of the route's own: "Insufficient scope, expected any of: ${ALL_SCOPES.join(',')}" on every operation instead of the one scope it needs; errorCode insufficient_scope and the status are as before.`,
    install: (app) => {
      const errors = capture(app, 'errors');
      editReplies(app, MANAGEMENT_ROUTES, (reply) =>
        reply.status === 403 && isErrorBody(reply.body) && reply.body.errorCode === 'insufficient_scope'
          ? { ...reply, body: { ...reply.body, message: errors().message('insufficient_scope', ALL_SCOPES.join(',')) } }
          : reply,
      );
    },
  },
  {
    id: 'ho13-expired-message-from-library',
    clause: 'errors.401.message',
    level: 'observed',
    bug: `The 401 for an expired token passing on the JWT library's own message ("${LIBRARY_EXPIRED_MESSAGE}", TokenExpiredError) where the service names the cause in its words ("Expired token received for JSON Web Token validation"); the status, the other 401 messages and a valid token's answers are as before.`,
    install: (app) => {
      const errors = capture(app, 'errors');
      editReplies(app, MANAGEMENT_ROUTES, (reply) => {
        if (reply.status !== 401 || !isErrorBody(reply.body) || reply.body.message !== errors().message('expired_token')) return reply;
        const body: Record<string, unknown> = { ...reply.body, message: LIBRARY_EXPIRED_MESSAGE };
        if (body.attributes !== null && typeof body.attributes === 'object')
          body.attributes = { ...body.attributes, error: LIBRARY_EXPIRED_MESSAGE };
        return { ...reply, body };
      });
    },
  },
  {
    id: 'ho13-path-error-parameter-camel-cased',
    clause: 'errors.400.path',
    level: 'observed',
    bug: 'A path error naming the parameter by the name the generated controller gives it, in camel case: a malformed event id is answered "Path validation error: ... on property eventId" instead of "event_id"; parameters whose name has no underscore (id) are named as before.',
    install: (app) =>
      editReplies(app, MANAGEMENT_ROUTES, (reply) =>
        reply.status === 400 && isErrorBody(reply.body) && reply.body.errorCode === 'invalid_uri' && typeof reply.body.message === 'string'
          ? {
              ...reply,
              body: {
                ...reply.body,
                message: reply.body.message.replace(/on property (\w+)$/, (_w, name: string) => `on property ${camelCase(name)}`),
              },
            }
          : reply,
      ),
  },
]);
