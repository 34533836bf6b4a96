// What an operation finds and how it refuses: redelivery's ids read by their type prefix wherever
// they stand, an event matched on its first characters, states refused by a blocklist; a profile
// left unchecked for form bodies and a taken name left unchecked beside connection_id; and the
// error answers (the path checked before the scope, two validation errors that crash the
// collector, form-body errors worded as query errors). Each changes one answer; the rest is
// answered as before.
import { cards } from '../../../../specs/cards/index.ts';
import { closedLimit, observed } from '../../../../specs/index.ts';
import type { Exchange, Reply } from '../../../exchange.ts';
import { Refusal } from '../../../refusal.ts';
import { success } from '../../../routes/success.ts';
import { isFormMediaType, isJsonMediaType } from '../../../stages/json-body.ts';
import { readRequestBody } from '../../../stages/request-body.ts';
import { validationProblem } from '../../../stages/validation-messages.ts';
import { checksOf } from '../../../validators.ts';
import { capture, captureAll } from '../../support/captured.ts';
import { editReplies, editRequests, isErrorBody } from '../../support/route-edits.ts';
import { editStore } from '../../support/store-view.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { duringRoutes } from '../round-2/support/during.ts';
import { answeredInstead } from '../support/answers.ts';
import { jsonObject } from './support/token-requests.ts';

const STREAM_PREFIX = observed.identifiers.event_stream.prefix;
const EVENT_PREFIX = observed.identifiers.event.prefix;
const eventIdLength = closedLimit('redeliver.path.event_id.length');
/** The characters of an event id the faulty lookup compares: all but the last. */
const COMPARED = eventIdLength.max - 1;
/** The states the faulty handler refuses; every other state is redelivered. */
const BLOCKED_STATES: readonly string[] = ['delivered'];
const CONFLICT = 409;
const BAD_REQUEST = 400;
const FORBIDDEN = 403;
/** The prefix and code the service gives errors of a query string. */
const QUERY_ERROR_PREFIX = 'Query validation error: ';
const QUERY_ERROR_CODE = 'invalid_query';

function decoded(segment: string | undefined): string | undefined {
  try {
    return segment === undefined ? undefined : decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

function messageOf(reply: Reply): string {
  const body = reply.body;
  const message = body !== null && typeof body === 'object' ? (body as { message?: unknown }).message : undefined;
  return typeof message === 'string' ? message : '';
}

/** Whether the request is a JSON ticket body naming a connection to edit. */
function editsAConnection(exchange: Exchange): boolean {
  if (!isJsonMediaType(exchange.headers['content-type'])) return false;
  return jsonObject(exchange.body.toString('utf8'))?.connection_id !== undefined;
}

export const stateAndErrorFaults = heldOutFamily([
  {
    id: 'ho4-redeliver-ids-read-by-prefix',
    clause: 'redeliver.errors.404.stream',
    level: 'contract',
    bug: `Redelivery resolves its two ids by their type prefix (${STREAM_PREFIX}, ${EVENT_PREFIX}) wherever they stand in the path, a helper shared with the search endpoint: a path that names the event where the stream goes and the stream where the event goes is answered 202 as a redelivery of that event instead of refused (the stream it names does not exist); two event ids are still refused.`,
    install: (app) =>
      editRequests(app, 'redeliver', (exchange) => {
        const { id, event_id: eventId } = exchange.params;
        if (!decoded(id)?.startsWith(EVENT_PREFIX) || !decoded(eventId)?.startsWith(STREAM_PREFIX)) return exchange;
        return { ...exchange, params: { ...exchange.params, id: eventId!, event_id: id! } };
      }),
  },
  {
    id: 'ho4-event-matched-on-first-characters',
    clause: 'redeliver.errors.404.event',
    level: 'contract',
    bug: `Events indexed on the first ${COMPARED} characters of their id (a key sized before the ids grew a character) and the row found by that key taken: an event id of the stream with its last character changed, ${eventIdLength.max} characters and naming no event, is redelivered (202) instead of 404; an id that differs earlier is still 404.`,
    install(app) {
      const store = capture(app, 'store');
      editRequests(app, 'redeliver', (exchange) => {
        const streamId = decoded(exchange.params.id);
        const eventId = decoded(exchange.params.event_id);
        const stream = streamId === undefined ? undefined : store().stream(streamId);
        if (!stream || eventId === undefined || eventId.length !== eventIdLength.max || stream.events.has(eventId)) return exchange;
        const found = [...stream.events.keys()].filter((key) => key.slice(0, COMPARED) === eventId.slice(0, COMPARED));
        return found.length === 1 ? { ...exchange, params: { ...exchange.params, event_id: found[0]! } } : exchange;
      });
    },
  },
  {
    id: 'ho4-redeliver-states-blocklisted',
    clause: 'redeliver.errors.409.state',
    level: 'contract',
    bug: `Redelivery refuses the states on a blocklist (${BLOCKED_STATES.join(', ')}) where it should accept failed events only: an event still pending delivery, not failed, is redelivered (202) instead of 409; a delivered event is still refused with 409.`,
    install(app) {
      const store = capture(app, 'store');
      editReplies(app, ['redeliver'], (reply, exchange) => {
        if (reply.status !== CONFLICT) return reply;
        const event = store().event(decoded(exchange.params.id) ?? '', decoded(exchange.params.event_id) ?? '');
        if (!event || BLOCKED_STATES.includes(event.status)) return reply;
        store().recordRedelivery(event);
        return answeredInstead(reply, success(cards.redeliver, {}));
      });
    },
  },
  {
    id: 'ho4-profile-unchecked-for-form-bodies',
    clause: 'sso-ticket.profile.exists',
    level: 'observed',
    bug: 'Form-encoded ticket requests handled by the legacy console handler, which builds the ticket from the path id without loading the profile: a form-encoded request for a profile that does not exist creates a ticket (201); the same request in JSON is still refused with 404.',
    install(app) {
      const during = duringRoutes(app, ['sso-ticket'], (exchange) => isFormMediaType(exchange.headers['content-type']));
      editStore(app, (store) => ({ profile: (id: string) => store.profile(id) ?? (during() ? { id } : undefined) }));
    },
  },
  {
    id: 'ho4-taken-name-unchecked-beside-connection-id',
    clause: 'sso-ticket.errors.409.name-taken',
    level: 'observed',
    bug: 'The name-clash check lives in the new-connection branch, which a body with connection_id never reaches: a body naming a connection to edit and a connection_config whose name is taken creates a ticket (201) instead of 409; the taken name alone is still refused with 409.',
    install(app) {
      const during = duringRoutes(app, ['sso-ticket'], editsAConnection);
      editStore(app, (store) => ({ connectionNameTaken: (name: string) => !during() && store.connectionNameTaken(name) }));
    },
  },
  {
    id: 'ho4-ticket-path-checked-before-scope',
    clause: 'auth.order',
    level: 'observed',
    bug: "Ticket creation validates its path with the router's parameter hook, which runs before the route's permission middleware: a valid token without the ticket scope, on a malformed profile id, is answered 400 invalid_uri instead of 403; on a well-formed id it still gets 403.",
    install(app) {
      const components = captureAll(app);
      editReplies(app, ['sso-ticket'], (reply, exchange) => {
        const { errors, validators } = components();
        if (reply.status !== FORBIDDEN || !messageOf(reply).startsWith(errors.message('insufficient_scope'))) return reply;
        for (const { name, validate } of checksOf(validators, 'sso-ticket').path) {
          const value = decoded(exchange.params[name]);
          if (value === undefined)
            return answeredInstead(reply, errors.reply('invalid_uri', `'Invalid percent-encoding' on property ${name}`));
          if (!validate(value))
            return answeredInstead(
              reply,
              errors.reply('invalid_uri', `'${validationProblem(validate.errors, value).text}' on property ${name}`),
            );
        }
        return reply;
      });
    },
  },
  {
    id: 'ho4-second-validation-error-crashes',
    clause: 'errors.two-causes',
    level: 'observed',
    bug: 'Validation problems gathered into a list that the collector freezes after the first one, so that adding a second throws: a ticket request with a bad custom-domain header and a bad body is answered 500 instead of 400 for one of them; a request with either defect alone is answered 400.',
    install(app) {
      const components = captureAll(app);
      editReplies(app, ['sso-ticket'], (reply, exchange) => {
        const deps = components();
        if (reply.status !== BAD_REQUEST || !messageOf(reply).startsWith(deps.errors.message('invalid_headers'))) return reply;
        const checks = checksOf(deps.validators, 'sso-ticket');
        let bodyIsBad: boolean;
        try {
          const body = readRequestBody(deps, exchange);
          const validate = body.encoding === 'form' ? (checks.formBody ?? checks.body) : checks.body;
          bodyIsBad = validate !== undefined && !validate(body.value);
        } catch (error) {
          if (!(error instanceof Refusal)) throw error;
          bodyIsBad = true;
        }
        return bodyIsBad ? answeredInstead(reply, deps.errors.reply('internal_error')) : reply;
      });
    },
  },
  {
    id: 'ho4-form-body-errors-as-query-errors',
    clause: 'errors.400.body',
    level: 'observed',
    bug: `Form-encoded ticket bodies parsed by the query-string parser, whose failures carry its wording: an invalid form body is answered 400 "${QUERY_ERROR_PREFIX}..." with errorCode ${QUERY_ERROR_CODE} instead of "Payload validation error: ..." and invalid_body; the same problem in a JSON body is worded as it should be.`,
    install(app) {
      const errors = capture(app, 'errors');
      editReplies(app, ['sso-ticket'], (reply, exchange) => {
        if (!isFormMediaType(exchange.headers['content-type']) || !isErrorBody(reply.body) || reply.body.errorCode !== 'invalid_body')
          return reply;
        const prefix = errors().message('invalid_body');
        const message = messageOf(reply);
        const worded = message.startsWith(prefix) ? `${QUERY_ERROR_PREFIX}${message.slice(prefix.length)}` : message;
        return { ...reply, body: { ...reply.body, message: worded, errorCode: QUERY_ERROR_CODE } };
      });
    },
  },
]);
