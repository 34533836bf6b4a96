// State and the errors: an optimistic "pending" written to a cache after each redelivery and read
// by the next one's state check, the ticket serialised by the handler and sent with Express's
// res.send (a string is typed text/html); and the observed rules: express-jwt passing on
// jsonwebtoken's messages, Django's get_object_or_404 wording an unknown connection, and the
// credential read with Go's Header.Get (the first of two Authorization headers). Each changes
// the answer to its near miss; the common answers are as before.
import { observed, operationKeys } from '../../../../specs/index.ts';
import { bearerToken, decodeJws } from '../../../auth/bearer.ts';
import { capture } from '../../support/captured.ts';
import { editReplies, editRequests, editSuccessReplies, isErrorBody } from '../../support/route-edits.ts';
import { editStore } from '../../support/store-view.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { headerOf, withHeader } from '../support/answers.ts';

type Fields = Record<string, unknown>;
const isObject = (value: unknown): value is Fields => value !== null && typeof value === 'object' && !Array.isArray(value);
/** How long the cache keeps the optimistic state of a redelivered event. */
const PENDING_MS = 5 * 60 * 1000;
const errorsOf = observed.errors;
const BAD_AUDIENCE = errorsOf.bad_audience!.prefix!;
const VAULT_NOT_FOUND = errorsOf.vault_connection_not_found!.message!;
/** Django's Http404 text for a model's DoesNotExist, as get_object_or_404 raises it. */
const DJANGO_NOT_FOUND = 'No VaultConnection matches the given query.';
/** jsonwebtoken's messages (as express-jwt's UnauthorizedError carries them), for the service's. */
const JSONWEBTOKEN_MESSAGES: Record<string, string> = {
  [errorsOf.invalid_signature!.message!]: 'invalid signature',
  [errorsOf.expired_token!.message!]: 'jwt expired',
  [errorsOf.invalid_token!.message!]: 'jwt malformed',
  [errorsOf.missing_authentication!.message!]: 'No authorization token was found',
};

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
    id: 'ho25-redelivery-optimistic-pending-cache',
    clause: 'redeliver.success.202',
    level: 'contract',
    bug: `A redelivery handler that, once the job is queued, writes the event as "pending" to the read cache (an optimistic update for the dashboard, kept ${PENDING_MS / 60_000} minutes) while the worker, finding the destination still down, marks it failed again in the database only; the state check reads the cache first: a failed event redelivered again within ${PENDING_MS / 60_000} minutes is answered 409 instead of 202; after that, or for another failed event, it is 202 as before.`,
    install: (app) => {
      const clock = capture(app, 'clock');
      const pendingUntil = new Map<string, number>();
      const keyOf = (streamId: string, eventId: string) => `${streamId}\n${eventId}`;
      editStore(app, (store) => ({
        event: (streamId, eventId) => {
          const event = store.event(streamId, eventId);
          const until = pendingUntil.get(keyOf(streamId, eventId));
          return event && until !== undefined && clock().now() < until ? { ...event, status: 'pending' } : event;
        },
      }));
      app.wrapRoute('redeliver', (next) => async (exchange) => {
        const reply = await next(exchange);
        const streamId = decodedOnce(exchange.params.id);
        const eventId = decodedOnce(exchange.params.event_id);
        if (reply.status === 202 && streamId !== undefined && eventId !== undefined)
          pendingUntil.set(keyOf(streamId, eventId), clock().now() + PENDING_MS);
        return reply;
      });
    },
  },
  {
    id: 'ho25-ticket-res-send-string-html',
    clause: 'sso-ticket.response.content-type',
    level: 'contract',
    bug: 'An Express ticket handler that serialises the answer itself, res.status(201).send(JSON.stringify({ ticket })) (to write the URL without escaping its slashes, as a template once did), and res.send() types a string as text/html: the ticket is answered with Content-Type "text/html; charset=utf-8" instead of application/json; the body\'s bytes are as before.',
    install: (app) => editSuccessReplies(app, 'sso-ticket', (reply) => withHeader(reply, 'content-type', 'text/html; charset=utf-8')),
  },
  {
    id: 'ho25-401-jsonwebtoken-messages',
    clause: 'errors.401.message',
    level: 'observed',
    bug: 'Tokens checked by express-jwt, whose UnauthorizedError carries jsonwebtoken\'s own message, and the error handler passing err.message on: a token whose signature does not verify is answered 401 "invalid signature" instead of "Invalid signature received for JSON Web Token validation" (an expired one "jwt expired", a malformed one "jwt malformed", a wrong audience "jwt audience invalid. expected: <the management audience>", none "No authorization token was found"); the status, and "Client is not global" raised by the handler, are as before.',
    install: (app) => {
      const tenant = capture(app, 'tenant');
      editReplies(app, operationKeys, (reply, exchange) => {
        if (reply.status !== 401 || !isErrorBody(reply.body) || typeof reply.body.message !== 'string') return reply;
        const original = reply.body.message;
        let message = JSONWEBTOKEN_MESSAGES[original];
        if (message === undefined && original.startsWith(BAD_AUDIENCE)) {
          const token = bearerToken(exchange.headers.authorization);
          const iss = token === undefined ? undefined : decodeJws(token)?.payload.iss;
          const required = typeof iss === 'string' ? tenant().identityForIssuer(iss, exchange.headers.host)?.audience : undefined;
          message = `jwt audience invalid. expected: ${required ?? tenant().audience}`;
        }
        if (message === undefined) return reply;
        const challenge = headerOf(reply, 'www-authenticate');
        const headers =
          challenge === undefined ? reply.headers : withHeader(reply, 'www-authenticate', challenge.replace(original, message)).headers;
        return {
          ...reply,
          headers,
          body: {
            ...reply.body,
            message,
            ...(isObject(reply.body.attributes) ? { attributes: { ...reply.body.attributes, error: message } } : {}),
          },
        };
      });
    },
  },
  {
    id: 'ho25-vault-404-django-get-object',
    clause: 'errors.404.vault',
    level: 'observed',
    bug: `The connection looked up with Django's get_object_or_404(VaultConnection, pk=id), whose Http404 the service's exception handler wraps in its error body with the exception's text: an unknown connection is answered 404 "${DJANGO_NOT_FOUND}" instead of "${VAULT_NOT_FOUND}"; the status and the body's shape are as before.`,
    install: (app) =>
      editReplies(app, ['vault'], (reply) =>
        reply.status === 404 && isErrorBody(reply.body) && reply.body.message === VAULT_NOT_FOUND
          ? { ...reply, body: { ...reply.body, message: DJANGO_NOT_FOUND } }
          : reply,
      ),
  },
  {
    id: 'ho25-authorization-first-header-go',
    clause: 'auth.authorization.single',
    level: 'observed',
    bug: 'A Go service that reads the credential with r.Header.Get("Authorization"), which gives the first of the values a header was sent with and never looks at the others: a request with two Authorization headers, a valid bearer token first and another credential second, is served (a read answers the record) instead of 400 "Bad HTTP authentication header format"; with an invalid credential first it is answered 401 (still refused), and one header is answered as before.',
    install: (app) => {
      for (const key of operationKeys) {
        editRequests(app, key, (exchange) =>
          exchange.repeatedHeaders.includes('authorization')
            ? { ...exchange, repeatedHeaders: exchange.repeatedHeaders.filter((name) => name !== 'authorization') }
            : exchange,
        );
      }
    },
  },
]);
