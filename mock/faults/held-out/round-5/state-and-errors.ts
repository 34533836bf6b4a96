// What redelivery finds and how the interface refuses: events found by a binary search over a list
// that is not sorted, a stream id resolved through its events when it names no stream, look-alike
// characters folded into the id alphabet; error bodies written by a snake_case serializer, an
// expired token reported as the last failure of a loop over keys, and not-found messages chosen by
// Accept-Language with the wrong fallback. Each changes one answer; the rest is answered as before.
import type { ApiErrorKind } from '../../../errors.ts';
import type { StoredEvent, Store } from '../../../store.ts';
import { capture } from '../../support/captured.ts';
import { editErrors } from '../../support/error-edits.ts';
import { editReplies, editRequests, isErrorBody, MANAGEMENT_ROUTES } from '../../support/route-edits.ts';
import { editStore } from '../../support/store-view.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { exchangeDuring } from '../round-3/support/exchange-during.ts';

/** Characters the base58 ids leave out, and the ones a "fix the typo" helper reads them as. */
const LOOK_ALIKES: Readonly<Record<string, string>> = { '0': 'o', O: 'o', I: '1', l: '1' };
/** The first language of the message table, which a request in a language it lacks gets. */
const GERMAN: Partial<Record<ApiErrorKind, string>> = {
  stream_not_found: 'Der angeforderte Stream existiert nicht.',
  event_not_found: 'Das angeforderte Ereignis existiert nicht.',
  vault_connection_not_found: 'Verbindung nicht gefunden',
};
const TRANSLATED = Object.keys(GERMAN) as ApiErrorKind[];

function decoded(segment: string | undefined): string | undefined {
  try {
    return segment === undefined ? undefined : decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

/** A binary search by id over the stream's events in the order they were added (not sorted by id). */
function binarySearched(store: Store, streamId: string, eventId: string): StoredEvent | undefined {
  const events = [...(store.stream(streamId)?.events.values() ?? [])];
  let low = 0;
  let high = events.length - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const id = events[middle]!.id;
    if (id === eventId) return events[middle];
    if (id < eventId) low = middle + 1;
    else high = middle - 1;
  }
  return undefined;
}

function folded(id: string): string {
  return [...id].map((c) => LOOK_ALIKES[c] ?? c).join('');
}

/** camelCase to snake_case, as a naming-convention serializer writes keys. */
function snakeCase(key: string): string {
  return key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

/** The primary language of an Accept-Language header's first entry; undefined without one. */
function primaryLanguage(header: string | string[] | undefined): string | undefined {
  const first = (Array.isArray(header) ? header[0] : header)?.split(',')[0]?.trim();
  return first ? first.split(/[-;]/)[0]!.toLowerCase() : undefined;
}

export const stateAndErrorFaults = heldOutFamily([
  {
    id: 'ho5-events-binary-searched-unsorted',
    clause: 'redeliver.errors.409.state',
    level: 'contract',
    bug: "A stream's events found by a binary search by id over the list kept in the order the events arrived, which is not sorted by id: an existing event that the search walks past, such as the default stream's pending event, is answered 404 \"does not exist\" instead of 409 for its state; the stream's failed event is still redelivered and its delivered one refused with 409.",
    install: (app) =>
      editStore(app, (store) => ({ event: (streamId: string, eventId: string) => binarySearched(store, streamId, eventId) })),
  },
  {
    id: 'ho5-unknown-stream-resolved-through-event',
    clause: 'redeliver.errors.404.stream',
    level: 'contract',
    bug: 'A fallback written for stream ids changed by a migration: when the path names no stream, the stream is taken from the event the path names, wherever it is: a redelivery under a well-formed stream id that does not exist, naming a failed event of another stream, is answered 202 instead of 404; an unknown stream with an unknown event is still 404.',
    install(app) {
      const store = capture(app, 'store');
      editRequests(app, 'redeliver', (exchange) => {
        const streamId = decoded(exchange.params.id);
        const eventId = decoded(exchange.params.event_id);
        if (streamId === undefined || eventId === undefined || store().stream(streamId)) return exchange;
        const owner = store()
          .streams()
          .find((stream) => stream.events.has(eventId));
        return owner ? { ...exchange, params: { ...exchange.params, id: owner.id } } : exchange;
      });
    },
  },
  {
    id: 'ho5-redeliver-look-alikes-folded',
    clause: 'redeliver.errors.404.event',
    level: 'contract',
    bug: `Redelivery's ids passed through a "fix the typo" helper that reads the characters base58 leaves out as their look-alikes (0 and O as o, I and l as 1) before they are validated: an existing failed event's id with its "o" written "0", an id that names no event, is redelivered (202) instead of refused; an id with another character changed is still refused.`,
    install: (app) =>
      editRequests(app, 'redeliver', (exchange) => {
        const params = { ...exchange.params };
        for (const name of ['id', 'event_id']) {
          const id = decoded(params[name]);
          if (id !== undefined && folded(id) !== id) params[name] = encodeURIComponent(folded(id));
        }
        return params.id === exchange.params.id && params.event_id === exchange.params.event_id ? exchange : { ...exchange, params };
      }),
  },
  {
    id: 'ho5-error-bodies-snake-case',
    clause: 'errors.body.shape',
    level: 'observed',
    bug: 'Error bodies written by a serializer configured for snake_case keys (the house style of the service\'s newer APIs): every error of the interface is {"status_code", "error", "message", "error_code"} instead of {"statusCode", "error", "message", "errorCode"}; success bodies, whose keys are snake_case already, are unchanged.',
    install: (app) =>
      editReplies(app, MANAGEMENT_ROUTES, (reply) =>
        isErrorBody(reply.body)
          ? { ...reply, body: Object.fromEntries(Object.entries(reply.body).map(([key, value]) => [snakeCase(key), value])) }
          : reply,
      ),
  },
  {
    id: 'ho5-expired-token-reported-as-signature',
    clause: 'errors.401.message',
    level: 'observed',
    bug: 'Tokens verified by a loop that tries each published key with a verify call that also checks exp, swallows each failure and, when no key succeeds, reports "no key verifies": an expired token of the tenant is answered 401 "Invalid signature received for JSON Web Token validation" instead of the expired-token message; a token with a bad signature gets that message too, as it should.',
    install: (app) => editErrors(app, ['expired_token'], (_reply, original) => original.reply('invalid_signature')),
  },
  {
    id: 'ho5-not-found-messages-german-fallback',
    clause: 'errors.404.stream',
    level: 'observed',
    bug: 'Not-found messages looked up by the request\'s Accept-Language in a message table whose fallback is its first language, German, rather than English: a request that prefers a language the table lacks (Accept-Language: fr-FR) for an unknown stream is answered "Der angeforderte Stream existiert nicht." (and the other 404s in German) instead of "The requested stream does not exist."; without the header, or in English, the message is right.',
    install(app) {
      const current = exchangeDuring(app, MANAGEMENT_ROUTES);
      editErrors(app, TRANSLATED, (reply, original) => {
        const language = primaryLanguage(current()?.headers['accept-language']);
        const body = reply.body as { message?: unknown } | undefined;
        const kind = TRANSLATED.find((k) => original.message(k) === body?.message);
        if (language === undefined || language === 'en' || kind === undefined) return reply;
        return { ...reply, body: { ...(reply.body as object), message: GERMAN[kind] } };
      });
    },
  },
]);
