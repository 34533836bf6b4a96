// Path ids: a stream looked up through memcached's text protocol (a space in the id makes "get" a
// multi-key get), event ids kept under PostgreSQL's nondeterministic ICU collation that ignores
// accents, vault records cached by a Caffeine cache keyed by the id lower-cased; and the observed
// rule: a path error worded by Fastify's schema validation (ajv's message behind "params/<name>").
// Each lets its near miss through, or words its error otherwise; a plainly wrong id is answered as
// before.
import { operationKeys } from '../../../../specs/index.ts';
import type { Exchange } from '../../../exchange.ts';
import type { ServedRecord } from '../../../fixtures.ts';
import { capture } from '../../support/captured.ts';
import { editReplies, editRequests, isErrorBody } from '../../support/route-edits.ts';
import { editStore, recordLookup, VAULT_RECORDS } from '../../support/store-view.ts';
import { heldOutFamily } from '../held-out-fault.ts';

const decodedOnce = (raw: string): string | undefined => {
  try {
    return decodeURIComponent(raw);
  } catch {
    return undefined;
  }
};
const paramOf = (exchange: Exchange, name: string) =>
  exchange.params[name] === undefined ? undefined : decodedOnce(exchange.params[name]);
const withParam = (exchange: Exchange, name: string, value: string): Exchange => ({
  ...exchange,
  params: { ...exchange.params, [name]: encodeURIComponent(value) },
});
/** What an ICU collation at the primary level with the case level on (und-u-ks-level1-kc-true) does not tell apart, as far as marks go. */
const withoutMarks = (text: string) => text.normalize('NFD').replace(/\p{M}/gu, '').normalize('NFC');
/** How long the record cache keeps an entry (expireAfterWrite). */
const CACHE_MS = 10 * 60 * 1000;
const PATH_ERROR = /^Path validation error: '(.*)' on property (\S+)$/s;

/** ajv's own message (what Fastify's default schemaErrorFormatter puts after "params/<name>") for the service's wording. */
function ajvWording(problem: string): string {
  const short = /^String is too short \(\d+ chars\), minimum (\d+)$/.exec(problem);
  if (short) return `must NOT have fewer than ${short[1]} characters`;
  const long = /^String is too long \(\d+ chars\), maximum (\d+)$/.exec(problem);
  if (long) return `must NOT have more than ${long[1]} characters`;
  const pattern = /^String does not match pattern (.*)$/s.exec(problem);
  if (pattern) return `must match pattern "${pattern[1]}"`;
  return 'must be valid';
}

export const pathIdFaults = heldOutFamily([
  {
    id: 'ho24-stream-id-memcached-multi-get',
    clause: 'redeliver.path.id.length',
    level: 'contract',
    bug: 'Streams cached in memcached and read with the text protocol\'s "get <id>\\r\\n" built from the id as sent, before the id is checked: a space in the id makes it a multi-key get, which answers the keys it finds, so the stream id followed by " x" (28 characters) redelivers the failed event (202) instead of 400; the stream id followed by "x" with no space is still refused.',
    install: (app) => {
      const store = capture(app, 'store');
      editRequests(app, 'redeliver', (exchange) => {
        const id = paramOf(exchange, 'id');
        if (id === undefined || !id.includes(' ') || store().stream(id)) return exchange;
        const found = id.split(' ').find((key) => key !== '' && store().stream(key));
        return found === undefined ? exchange : withParam(exchange, 'id', found);
      });
    },
  },
  {
    id: 'ho24-event-id-icu-ignore-accents',
    clause: 'redeliver.errors.404.event',
    level: 'contract',
    bug: 'Events kept in a PostgreSQL table whose id column uses the nondeterministic ICU collation the documentation gives as its example of ignoring accents (und-u-ks-level1-kc-true, made for the event names and applied to the table): the failed event\'s id with one "a" written "á" (still 26 characters, naming no event) redelivers it (202) instead of 400 or 404; the id with that "a" written "b" is still refused, and so is the id in other letter case.',
    install: (app) => {
      const store = capture(app, 'store');
      editRequests(app, 'redeliver', (exchange) => {
        const streamId = paramOf(exchange, 'id');
        const eventId = paramOf(exchange, 'event_id');
        const stream = streamId === undefined ? undefined : store().stream(streamId);
        if (!stream || eventId === undefined || stream.events.has(eventId)) return exchange;
        const folded = withoutMarks(eventId);
        return folded !== eventId && stream.events.has(folded) ? withParam(exchange, 'event_id', folded) : exchange;
      });
    },
  },
  {
    id: 'ho24-vault-cache-key-lowercased',
    clause: 'vault.response.record',
    level: 'contract',
    bug: `Vault records read through a Caffeine cache (expireAfterWrite ${CACHE_MS / 60_000} minutes) whose key is the id lower-cased, so that ids pasted in any case hit it: once a connection has been read, its id in lower case ("ac_nbwaizzto4vfwncwdq76vj", well formed and naming no connection) is answered 200 with that connection's record instead of 404; before the first read, or for an id never read, it is still 404.`,
    install: (app) => {
      const clock = capture(app, 'clock');
      const cache = new Map<string, { record: ServedRecord; at: number }>();
      editStore(app, (store) =>
        recordLookup(store, VAULT_RECORDS, (id) => {
          const key = id.toLowerCase();
          const hit = cache.get(key);
          if (hit && clock().now() - hit.at < CACHE_MS) return hit.record;
          const found = store.record(VAULT_RECORDS, id);
          if (found) cache.set(key, { record: found, at: clock().now() });
          return found;
        }),
      );
    },
  },
  {
    id: 'ho24-path-error-fastify-wording',
    clause: 'errors.400.path',
    level: 'observed',
    bug: "Path parameters validated by Fastify's route schema, and the service's setErrorHandler mapping a validation error of the params to 400 with errorCode invalid_uri but passing on Fastify's message: a malformed path id is answered \"params/event_id must NOT have fewer than 26 characters\" instead of \"Path validation error: '...' on property event_id\"; the status, errorCode and the parameter named are as before.",
    install: (app) =>
      editReplies(app, operationKeys, (reply) => {
        if (reply.status !== 400 || !isErrorBody(reply.body) || reply.body.errorCode !== 'invalid_uri') return reply;
        const parsed = typeof reply.body.message === 'string' ? PATH_ERROR.exec(reply.body.message) : null;
        if (!parsed) return reply;
        return { ...reply, body: { ...reply.body, message: `params/${parsed[2]} ${ajvWording(parsed[1]!)}` } };
      }),
  },
]);
