// Redelivery's answers and the state behind them (spec 4.1, 7): what it answers for a failed event,
// and which streams and events it takes for redeliverable.
import { errorFact, observed } from '../../specs/index.ts';
import { jsonReply, type Reply } from '../exchange.ts';
import { faultFamily } from './fault.ts';
import {
  editReplies,
  editRequests,
  editSuccessReplies,
  isErrorBody,
  replacing,
  replayedByKeyAlone,
  withoutHeaders,
} from './support/route-edits.ts';
import { capture } from './support/captured.ts';
import { editStore } from './support/store-view.ts';

const ACCEPTED = observed.operations.redeliver.success;
const STREAM_NOT_FOUND = errorFact('stream_not_found');
const NO_CONTENT = 204;

function withoutBody({ body: _dropped, ...reply }: Reply): Reply {
  return reply;
}

export const redeliveryFaults = faultFamily([
  {
    id: 'event-state-checked-before-stream',
    clause: 'redeliver.errors.404.stream',
    bug: 'Redelivery that loads the event by its id alone and checks its state before the stream: a stream that does not exist, named with an event of another stream that cannot be redelivered, is answered 409 instead of 404.',
    install(app) {
      const errors = capture(app, 'errors');
      const store = capture(app, 'store');
      app.wrapRoute('redeliver', (next) => async (exchange) => {
        const { id = '', event_id = '' } = exchange.params;
        const elsewhere = store()
          .streams()
          .map((stream) => stream.events.get(decodeURIComponent(event_id)))
          .find((event) => event !== undefined);
        if (!store().stream(decodeURIComponent(id)) && elsewhere && elsewhere.status !== 'failed')
          return errors().reply('event_not_redeliverable');
        return next(exchange);
      });
    },
  },
  {
    id: 'redeliver-on-any-method',
    clause: 'routes.method',
    bug: 'A route registered for every method (app.all): a GET, PUT, PATCH or DELETE on the redelivery path is answered 202 {} as a redelivery.',
    install: (app) =>
      app.wrapRoute(
        'method-not-allowed',
        (next) => async (exchange) =>
          exchange.allow?.includes('POST') && exchange.path.includes('/redeliver/') ? jsonReply(ACCEPTED.status, {}) : next(exchange),
      ),
  },
  {
    id: 'redeliver-method-from-query-parameter',
    clause: 'routes.method',
    bug: 'A method-override layer whose getter reads the query parameter "method" (for HTML forms that cannot send POST) on the redelivery path: GET /…/redeliver?method=POST is answered 202 {} as a redelivery; without the parameter, or with the X-HTTP-Method-Override header, other methods are still refused 405.',
    install: (app) =>
      app.wrapRoute('method-not-allowed', (next) => async (exchange) => {
        const asked = new URLSearchParams(exchange.query).get('method');
        return asked === 'POST' && exchange.allow?.includes('POST') && exchange.path.includes('/redeliver/')
          ? jsonReply(ACCEPTED.status, {})
          : next(exchange);
      }),
  },
  {
    id: 'options-answered-as-preflight',
    clause: 'routes.method',
    bug: "A CORS middleware that answers every OPTIONS itself, before the router: OPTIONS on an operation's path is answered 204 with Access-Control-Allow-Methods instead of refused (405).",
    install: (app) =>
      app.wrapRoute(
        'method-not-allowed',
        (next) => async (exchange) =>
          exchange.method === 'OPTIONS'
            ? { status: NO_CONTENT, headers: { 'access-control-allow-methods': (exchange.allow ?? []).join(', ') }, body: undefined }
            : next(exchange),
      ),
  },
  {
    id: 'method-not-allowed-without-allow',
    clause: 'routes.method',
    bug: "A router whose 405 handler builds its answer from the error alone: another method on an operation's path is refused 405 without the Allow header RFC 9110 15.5.6 requires (so a client cannot learn the path's method).",
    install: (app) => app.wrapRoute('method-not-allowed', (next) => async (exchange) => withoutHeaders(await next(exchange), ['allow'])),
  },
  {
    id: 'redeliver-202-names-what-it-was-sent',
    clause: 'redeliver.response.body',
    bug: 'A redelivery handler that answers what it queued, the request\'s JSON body as the job\'s options ({"options": <body>}), where it is sent one: a redelivery carrying a JSON body is answered 202 with that object instead of {}; one without a body is answered {} as before.',
    install: (app) =>
      editSuccessReplies(app, 'redeliver', (reply, exchange) => {
        if (exchange.body.length === 0) return reply;
        try {
          return replacing(reply, jsonReply(reply.status, { options: JSON.parse(exchange.body.toString('utf8')) as unknown }));
        } catch {
          return reply;
        }
      }),
  },
  {
    id: 'trace-answered-on-operation-paths',
    clause: 'routes.method',
    bug: "A framework's default TRACE handler left on (it answers the method itself, before any route): TRACE on an operation's path is answered 200 with the request line as text/plain instead of being refused 405; the other methods are refused as before.",
    install: (app) =>
      app.wrapRoute(
        'method-not-allowed',
        (next) => async (exchange) =>
          exchange.method === 'TRACE'
            ? { status: 200, headers: { 'content-type': 'message/http' }, body: `TRACE ${exchange.path} HTTP/1.1\r\n` }
            : next(exchange),
      ),
  },
  {
    id: 'redeliver-204-instead-of-202',
    clause: 'redeliver.success.202',
    bug: 'A handler that takes "no body" for the reason of its status: redelivery of a failed event answers 204 without a body instead of 202 (the observed {} body goes too).',
    install: (app) => editSuccessReplies(app, 'redeliver', (reply) => ({ ...withoutBody(reply), status: NO_CONTENT })),
  },
  {
    id: 'redeliver-202-without-body',
    clause: 'redeliver.response.body',
    bug: 'A handler that ends the response without writing: the 202 of a redelivery has an empty body and no content type instead of {} as JSON.',
    install: (app) => editSuccessReplies(app, 'redeliver', (reply) => withoutBody(withoutHeaders(reply, ['content-type']))),
  },
  {
    id: '202-for-missing-stream',
    clause: 'redeliver.errors.404.stream',
    bug: 'A queue that leaves the stream lookup to the worker that picks the job up later: redelivery under an unknown stream answers 202 instead of 404.',
    install: (app) =>
      editReplies(app, ['redeliver'], (reply) => {
        const missingStream =
          reply.status === STREAM_NOT_FOUND.status && isErrorBody(reply.body) && reply.body.message === STREAM_NOT_FOUND.message;
        return missingStream ? replacing(reply, jsonReply(ACCEPTED.status, ACCEPTED.body)) : reply;
      }),
  },
  {
    id: '202-for-missing-event',
    clause: 'redeliver.errors.404.event',
    bug: 'An upsert of the delivery record: redelivery creates a failed record for an event the stream does not have, so an unknown event answers 202 instead of 404.',
    install: (app) =>
      editStore(app, (store) => ({
        event: (streamId, eventId) =>
          store.event(streamId, eventId) ??
          (store.stream(streamId) ? { id: eventId, streamId, status: 'failed', redeliveries: 0 } : undefined),
      })),
  },
  {
    id: 'events-memoised-from-the-first-stream-read',
    clause: 'redeliver.success.202',
    bug: "The stream's events loaded through a memoised helper whose cache key leaves out the stream id: the first existing stream whose events are read stays the one every later lookup searches, so a failed event of another of the tenant's streams, redelivered through its own stream, is answered 404 instead of 202 (and an event of the first stream read is found through any existing stream).",
    install: (app) =>
      editStore(app, (store) => {
        let loaded: string | undefined;
        return {
          event: (streamId, eventId) => {
            if (!store.stream(streamId)) return undefined;
            loaded ??= streamId;
            return store.event(loaded, eventId);
          },
        };
      }),
  },
  {
    id: 'redelivery-event-id-from-body',
    clause: 'redeliver.errors.404.event',
    bug: "A handler that reads `body.event_id ?? params.event_id` (the body was meant for a batch form of the endpoint): a redelivery naming an unknown event in its path, with the failed event's id in a JSON body, redelivers that event (202) instead of 404; without a body, 404 as before.",
    install: (app) =>
      editRequests(app, 'redeliver', (exchange) => {
        let body: unknown;
        try {
          body = JSON.parse(exchange.body.toString('utf8'));
        } catch {
          return exchange;
        }
        const named = (body as { event_id?: unknown } | null)?.event_id;
        return typeof named === 'string' ? { ...exchange, params: { ...exchange.params, event_id: encodeURIComponent(named) } } : exchange;
      }),
  },
  {
    id: 'redelivery-replayed-by-idempotency-key-alone',
    clause: 'redeliver.errors.409.state',
    bug: "An idempotency layer that stores redeliveries' answers under the Idempotency-Key alone, with no fingerprint of the request: an event that cannot be redelivered, named under the key of an accepted redelivery of another event, is answered 202 instead of 409; without the key, 409 as before.",
    install: (app) => replayedByKeyAlone(app, 'redeliver'),
  },
  {
    id: 'redelivery-state-checked-before-scope',
    clause: 'auth.order',
    bug: 'A handler that loads the event and checks its state before the scope (a state guard mounted ahead of the permission check): a token without the scope, naming an event that cannot be redelivered, is answered 409 instead of 403; without a token, 401 as before, and a failed event is still refused 403.',
    install: (app) => {
      const store = capture(app, 'store');
      const errors = capture(app, 'errors');
      editReplies(app, ['redeliver'], (reply, exchange) => {
        const { id, event_id } = exchange.params;
        const event = id === undefined || event_id === undefined ? undefined : store().event(id, event_id);
        return reply.status === 403 && event !== undefined && event.status !== 'failed'
          ? replacing(reply, errors().reply('event_not_redeliverable'))
          : reply;
      });
    },
  },
  {
    id: '202-for-non-redeliverable-event',
    clause: 'redeliver.errors.409.state',
    bug: 'A handler that never looks at the delivery state: redelivery of a delivered event answers 202 instead of 409.',
    install: (app) =>
      editStore(app, (store) => ({
        event(streamId, eventId) {
          const event = store.event(streamId, eventId);
          return event && { ...event, status: 'failed' };
        },
      })),
  },
  {
    id: 'state-check-skipped-by-override-flag',
    clause: 'redeliver.errors.409.state',
    bug: 'An "override=true" query flag left in from the support console, which redelivers whatever the event\'s state: a delivered event redelivered with ?override=true is answered 202 instead of 409 (without the flag, 409 as before).',
    install: (app) =>
      editReplies(app, ['redeliver'], (reply, exchange) =>
        reply.status === 409 && new URLSearchParams(exchange.query).get('override') === 'true'
          ? replacing(reply, jsonReply(ACCEPTED.status, ACCEPTED.body))
          : reply,
      ),
  },
  {
    id: 'redeliver-json-content-type-needs-a-body',
    clause: 'redeliver.success.202',
    bug: 'Redelivery behind the body stage of the operations that take one, which reads a JSON content type over no content as a malformed body: a redelivery of a failed event sent with Content-Type: application/json and no body (as SDKs send every POST) is answered 400 instead of 202; without the header it is answered 202.',
    install(app) {
      const errors = capture(app, 'errors');
      app.wrapRoute(
        'redeliver',
        (next) => async (exchange) =>
          (exchange.headers['content-type'] ?? '').toLowerCase().startsWith('application/json') && exchange.body.length === 0
            ? errors().reply('malformed_json')
            : next(exchange),
      );
    },
  },
  {
    id: 'redeliver-conflict-backs-off-the-stream',
    clause: 'redeliver.success.202',
    bug: "A retry guard that marks a stream as conflicting when a redelivery is refused 409 and clears the mark on the next redelivery of that stream, which it refuses 409 too: right after a 409, the redelivery of the stream's failed event is answered 409 instead of 202 (the one after it 202 again); other streams are answered as before.",
    install(app) {
      const errors = capture(app, 'errors');
      const marked = new Set<string>();
      editReplies(app, ['redeliver'], (reply, exchange) => {
        const stream = exchange.params.id ?? '';
        if (reply.status === 409) {
          marked.add(stream);
          return reply;
        }
        if (!marked.delete(stream)) return reply;
        return reply.status === 202 ? replacing(reply, errors().reply('event_not_redeliverable')) : reply;
      });
    },
  },
  {
    id: 'redeliver-lock-kept-after-refused-credentials',
    clause: 'redeliver.success.202',
    bug: 'A per-event redelivery lock taken as the route matches, before the credential is checked, and released only when the handler answers: a redelivery refused 401 or 403 leaves the event locked, and its next redelivery is refused 409 (releasing it) instead of 202; a refusal for the path or the state, and every other event, are answered as before.',
    install(app) {
      const errors = capture(app, 'errors');
      const locked = new Set<string>();
      editReplies(app, ['redeliver'], (reply, exchange) => {
        const event = `${exchange.params.id ?? ''}/${exchange.params.event_id ?? ''}`;
        if (reply.status === 401 || reply.status === 403) {
          locked.add(event);
          return reply;
        }
        if (!locked.delete(event)) return reply;
        return reply.status === 202 ? replacing(reply, errors().reply('event_not_redeliverable')) : reply;
      });
    },
  },
]);
