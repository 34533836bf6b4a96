// State and errors, where two causes meet: the observed rules: an event looked up before its
// stream, so that an unknown stream with an unknown event is told the event is missing; the
// global-client check made before the expiry of a token. Other requests are answered as before.
import { captureAll } from '../../support/captured.ts';
import { bearerToken } from '../../../auth/bearer.ts';
import { signedPayload } from '../../support/verifier-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { answeredInstead } from '../support/answers.ts';

const NOT_FOUND = 404;
const UNAUTHORIZED = 401;

export const stateAndErrorFaults = heldOutFamily([
  {
    id: 'ho40-unknown-stream-and-event-told-event',
    clause: 'errors.404.stream',
    level: 'observed',
    bug: 'A DynamoDB single-table redelivery service (Node) that fetches the event item by its own key (EVENT#<event_id>) first, answering 404 "The requested event does not exist." on a miss, and checks that the event\'s stream is the path\'s (and exists) only after: a path whose stream and event are both unknown is answered the event\'s 404 message instead of "The requested stream does not exist."; an unknown stream beside a known event, and a known stream beside an unknown event, are answered as before.',
    install: (app) => {
      const components = captureAll(app);
      app.wrapRoute('redeliver', (next) => async (exchange) => {
        const reply = await next(exchange);
        const eventId = exchange.params.event_id;
        const { store, errors } = components();
        if (reply.status !== NOT_FOUND || eventId === undefined) return reply;
        const message = (reply.body as { message?: unknown } | undefined)?.message;
        if (message !== errors.message('stream_not_found')) return reply;
        if (store.streams().some((s) => s.events.has(eventId))) return reply;
        return answeredInstead(reply, errors.reply('event_not_found'));
      });
    },
  },
  {
    id: 'ho40-global-client-checked-before-expiry',
    clause: 'errors.401.message',
    level: 'observed',
    bug: 'A Passport JWT strategy configured with ignoreExpiration: true (the verify callback wants the claims of an expired token to log its client) whose callback looks the client up and refuses a non-global one before it compares exp itself: an expired token of a client that is not global is answered 401 "Client is not global" instead of the expired-token message; an expired token of the global client, and a valid one of a non-global client, are answered as before.',
    install: (app) => {
      const components = captureAll(app);
      app.wrapRoute('redeliver', (next) => async (exchange) => {
        const reply = await next(exchange);
        if (reply.status !== UNAUTHORIZED) return reply;
        const { keys, store, clock, errors } = components();
        const token = bearerToken(exchange.headers.authorization);
        const claims = token === undefined ? undefined : await signedPayload(token, keys);
        if (!claims || typeof claims.exp !== 'number' || claims.exp * 1000 > clock.now() || typeof claims.azp !== 'string') return reply;
        const client = store.client(claims.azp);
        return client && !client.global ? answeredInstead(reply, errors.reply('client_not_global')) : reply;
      });
    },
  },
]);
