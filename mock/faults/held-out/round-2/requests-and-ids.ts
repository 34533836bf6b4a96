// How a request names what it acts on: a path id's length counted as sent (still percent-encoded),
// the event id's observed shape left unchecked, the stream-or-event lookup reported by the join
// that failed, a method override honoured on the vault path, and the custom-domain header checked
// only where the body is. Each changes the answer to one near miss; requests without it are
// answered as before.
import type { ValidateFunction } from 'ajv';
import { cards } from '../../../../specs/cards/index.ts';
import { closedLimit, parameter, toJsonSchema } from '../../../../specs/index.ts';
import { createRouter } from '../../../router.ts';
import { readRecordRoute } from '../../../routes/read-record.ts';
import { checksOf } from '../../../validators.ts';
import { capture, captureAll } from '../../support/captured.ts';
import { compileCheck, replaceParameterCheck } from '../../support/check-edits.ts';
import { editReplies } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { answeredInstead } from '../support/answers.ts';
import { duringRoutes } from './support/during.ts';
import { handlerOf } from './support/handlers.ts';

const eventIdLength = closedLimit('redeliver.path.event_id.length');
const CUSTOM_DOMAIN = 'tenant-custom-domain';
/** The header a method-override middleware reads (Express's method-override, Rails, Google APIs). */
const METHOD_OVERRIDE = 'x-http-method-override';
/** Answers after which a path check would have had its say: the request was authenticated and authorized. */
const PAST_THE_PATH_CHECK = new Set([202, 404, 409]);

function decoded(segment: string | undefined): string | undefined {
  try {
    return segment === undefined ? undefined : decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

/** A ticket body with no field: none at all, whitespace, {} or an empty form. */
function hasNoFields(body: Buffer): boolean {
  const text = body.toString('utf8').trim();
  if (text === '') return true;
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length === 0;
  } catch {
    return false;
  }
}

export const requestAndIdFaults = heldOutFamily([
  {
    id: 'ho2-event-id-length-counted-as-sent',
    clause: 'redeliver.path.event_id.length',
    level: 'contract',
    bug: `Redelivery counts the event id's length on the path segment as sent, before percent-decoding: an existing ${eventIdLength.max}-character event id with one character percent-encoded (%5F for its underscore, the same id) is refused with 400 "String is too long"; the id written plainly is accepted.`,
    install(app) {
      const errors = capture(app, 'errors');
      editReplies(app, ['redeliver'], (reply, exchange) => {
        const raw = exchange.params.event_id ?? '';
        if (!PAST_THE_PATH_CHECK.has(reply.status) || !raw.includes('%') || raw.length <= eventIdLength.max) return reply;
        return answeredInstead(
          reply,
          errors().reply('invalid_uri', `'String is too long (${raw.length} chars), maximum ${eventIdLength.max}' on property event_id`),
        );
      });
    },
  },
  {
    id: 'ho2-event-id-shape-unchecked',
    clause: 'errors.400.path',
    level: 'observed',
    bug: "Redelivery's event_id checked against the spec's schema only (26 characters), not the real service's shape (evt_ and base58): an id of the right length but of another kind, such as a stream id, is looked up and answered 404 instead of 400 invalid_uri.",
    install: (app) =>
      replaceParameterCheck(app, 'redeliver', 'path', 'event_id', () =>
        compileCheck(toJsonSchema(parameter('redeliver', 'path', 'event_id').schema, 'contract')),
      ),
  },
  {
    id: 'ho2-unknown-stream-and-event-told-event-missing',
    clause: 'errors.404.stream',
    level: 'observed',
    bug: 'Redelivery looks the event up joined with its stream and reports the join that came back empty, looking at the stream table only when the event id exists somewhere: an unknown stream named with an unknown event is answered 404 "The requested event does not exist." instead of the stream\'s message (an unknown stream with an existing event still gets it).',
    install(app) {
      const components = captureAll(app);
      editReplies(app, ['redeliver'], (reply, exchange) => {
        const { errors, store } = components();
        const body = reply.body as { message?: unknown } | undefined;
        if (reply.status !== 404 || body?.message !== errors.message('stream_not_found')) return reply;
        const eventId = decoded(exchange.params.event_id);
        const exists = store.streams().some((stream) => eventId !== undefined && stream.events.has(eventId));
        return exists ? reply : answeredInstead(reply, errors.reply('event_not_found'));
      });
    },
  },
  {
    id: 'ho2-vault-post-with-method-override',
    clause: 'routes.method',
    level: 'observed',
    bug: `A method-override middleware (${METHOD_OVERRIDE}, honoured on POST as its default is): a POST to a vault connection's path carrying "${METHOD_OVERRIDE}: GET" is served as the read (200 with the record) instead of 405; a POST without it still gets 405.`,
    install(app) {
      const read = handlerOf(app, (components) => readRecordRoute(components, cards.vault));
      const route = createRouter([cards.vault]);
      app.wrapRoute('method-not-allowed', (next) => async (exchange) => {
        const override = exchange.headers[METHOD_OVERRIDE];
        if (exchange.method !== 'POST' || typeof override !== 'string' || override.trim().toUpperCase() !== 'GET') return next(exchange);
        const match = route('GET', exchange.path);
        if (match.key !== 'vault') return next(exchange);
        const refused = await next(exchange);
        return answeredInstead(refused, await read({ ...exchange, method: 'GET', params: match.params }));
      });
    },
  },
  {
    id: 'ho2-custom-domain-checked-only-with-body-fields',
    clause: 'sso-ticket.header.custom-domain.length',
    level: 'contract',
    bug: `Ticket creation checks ${CUSTOM_DOMAIN} inside its body validator, which returns early for a body without fields: with no body or {}, a header of any length (2 characters, 300) is accepted and becomes the ticket's host; with any body field the 3..255 bounds hold.`,
    install(app) {
      const withoutFields = duringRoutes(app, ['sso-ticket'], (exchange) => hasNoFields(exchange.body));
      app.override('validators', (validators) => {
        const checks = checksOf(validators, 'sso-ticket').headers;
        const index = checks.findIndex((check) => check.name === CUSTOM_DOMAIN);
        if (index < 0) throw new Error(`ticket creation has no ${CUSTOM_DOMAIN} check`);
        const strict = checks[index]!.validate;
        const lenient = ((value: unknown) => withoutFields() || strict(value)) as ValidateFunction;
        Object.defineProperty(lenient, 'errors', { get: () => strict.errors });
        checks[index] = { ...checks[index]!, validate: lenient };
        return validators;
      });
    },
  },
]);
