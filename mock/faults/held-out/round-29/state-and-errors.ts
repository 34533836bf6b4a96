// State and the errors: a redelivery refused through Rails' AASM, whose InvalidTransition the
// controller rescues as 422; an unknown event read from a Go map, whose zero value has no state that
// allows redelivery; and the observed rules: the 401s of a SvelteKit hook worded by jose's errors,
// the unknown connection answered with Hibernate's EntityNotFoundException message, the redelivery
// route of a Vert.x router declared without its method. Each changes the answer to its near miss;
// the common answers are as before.
import { basePath, observed } from '../../../../specs/index.ts';
import type { Exchange, RouteHandler } from '../../../exchange.ts';
import { capture } from '../../support/captured.ts';
import { editReplies, isErrorBody, MANAGEMENT_ROUTES, withStatus } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { answeredInstead } from '../support/answers.ts';

const VAULT_NOT_FOUND = observed.errors.vault_connection_not_found!.message!;
const INVALID_SIGNATURE = observed.errors.invalid_signature!.message!;
const EXPIRED_TOKEN = observed.errors.expired_token!.message!;
/** The mock's message for an unknown event of a known stream. */
const EVENT_NOT_FOUND = 'The requested event does not exist.';
/** jose's messages: JWSSignatureVerificationFailed and JWTExpired. */
const JOSE_MESSAGES: ReadonlyMap<string, string> = new Map([
  [INVALID_SIGNATURE, 'signature verification failed'],
  [EXPIRED_TOKEN, '"exp" claim timestamp check failed'],
]);
/** The entity class Hibernate names in its message. */
const ENTITY = 'com.acme.flows.vault.VaultConnection';
/** The methods a Vert.x route declared without .method(...) takes on the redelivery path, besides POST. */
const OTHER_METHODS = new Set(['GET', 'PUT', 'PATCH', 'DELETE']);
const REDELIVER_PATH = new RegExp(`^${basePath.replace(/[/.]/g, '\\$&')}/event-streams/([^/]+)/redeliver/([^/]+)$`);

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
    id: 'ho29-redeliver-aasm-invalid-transition-422',
    clause: 'redeliver.errors.409.state',
    level: 'contract',
    bug: 'A Rails redelivery action that moves the event with AASM (event.redeliver!, an event allowed only from :failed) and rescues AASM::InvalidTransition the way the app rescues every invalid change, with status :unprocessable_entity: a delivered or pending event is answered 422 instead of 409; an unknown event is still 404, a failed one 202.',
    install: (app) => editReplies(app, ['redeliver'], (reply) => (reply.status === 409 ? withStatus(reply, 422) : reply)),
  },
  {
    id: 'ho29-unknown-event-go-map-zero-value',
    clause: 'redeliver.errors.404.event',
    level: 'contract',
    bug: 'A Go redelivery handler that reads the event with ev := stream.Events[eventID] (a map, whose lookup of a missing key gives the zero Event, with Status "") and checks only if ev.Status != StatusFailed: an unknown event of an existing stream is answered 409 instead of 404; an unknown stream is still 404, a failed event 202.',
    install: (app) => {
      const errors = capture(app, 'errors');
      editReplies(app, ['redeliver'], (reply) =>
        reply.status === 404 && isErrorBody(reply.body) && reply.body.message === EVENT_NOT_FOUND
          ? answeredInstead(reply, errors().reply('event_not_redeliverable'))
          : reply,
      );
    },
  },
  {
    id: 'ho29-401-sveltekit-jose-messages',
    clause: 'errors.401.message',
    level: 'observed',
    bug: 'A SvelteKit hooks.server.ts that verifies tokens with jose\'s jwtVerify and answers error(401, e.message): a token whose signature does not verify is answered 401 "signature verification failed" (JWSSignatureVerificationFailed) and an expired one \'"exp" claim timestamp check failed\' (JWTExpired) instead of the service\'s messages; "Invalid token" and "Client is not global" are as before.',
    install: (app) =>
      editReplies(app, MANAGEMENT_ROUTES, (reply) => {
        if (reply.status !== 401 || !isErrorBody(reply.body) || typeof reply.body.message !== 'string') return reply;
        const message = JOSE_MESSAGES.get(reply.body.message);
        if (message === undefined) return reply;
        const attributes = reply.body.attributes === undefined ? {} : { attributes: { error: message } };
        return { ...reply, body: { ...reply.body, message, ...attributes } };
      }),
  },
  {
    id: 'ho29-vault-404-hibernate-entity-not-found',
    clause: 'errors.404.vault',
    level: 'observed',
    bug: `A Spring Data service that loads the connection with repository.getReferenceById(id) and answers the EntityNotFoundException Hibernate raises when the proxy is first read with its message: an unknown connection is answered 404 "Unable to find ${ENTITY} with id <id>" instead of "${VAULT_NOT_FOUND}"; the status and the other members are as before.`,
    install: (app) =>
      editReplies(app, ['vault'], (reply, exchange) =>
        reply.status === 404 && isErrorBody(reply.body) && reply.body.message === VAULT_NOT_FOUND
          ? { ...reply, body: { ...reply.body, message: `Unable to find ${ENTITY} with id ${paramOf(exchange, 'id') ?? ''}` } }
          : reply,
      ),
  },
  {
    id: 'ho29-redeliver-vertx-route-without-method',
    clause: 'routes.method',
    level: 'observed',
    bug: 'A Vert.x router where the redelivery route was declared router.route("/api/v2/event-streams/:id/redeliver/:event_id").handler(...), without .method(HttpMethod.POST), so it takes every method: a PUT, PATCH, DELETE or GET of a failed event\'s redelivery path redelivers it (202) instead of being refused 405; the other paths refuse other methods as before.',
    install: (app) => {
      let redeliver: RouteHandler | undefined;
      app.wrapRoute('redeliver', (next) => {
        redeliver = next;
        return next;
      });
      app.wrapRoute('method-not-allowed', (next) => async (exchange) => {
        const parsed = REDELIVER_PATH.exec(exchange.path);
        if (!parsed || !OTHER_METHODS.has(exchange.method) || !redeliver) return next(exchange);
        return redeliver({ ...exchange, params: { id: parsed[1]!, event_id: parsed[2]! } });
      });
    },
  },
]);
