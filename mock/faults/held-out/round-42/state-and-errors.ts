// Lookups and errors across requests: negative caches keyed on too little (a Go sync.Map of missing
// events keyed by the stream, a Redis key cut to 20 characters, a Caffeine cache keyed by the id in
// lower case) and a 404 body built once by sync.OnceValue. Each shows only after an earlier request
// of its kind; before it, every answer is as before.
import { observed } from '../../../../specs/index.ts';
import type { FaultHooks } from '../../../app.ts';
import type { ApiErrorKind } from '../../../errors.ts';
import type { Exchange, Reply } from '../../../exchange.ts';
import { capture } from '../../support/captured.ts';
import { editReplies, isErrorBody } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { answeredInstead } from '../support/answers.ts';

const EVENT_NOT_FOUND = 'The requested event does not exist.';
const STREAM_NOT_FOUND = observed.errors.stream_not_found!.message!;
const VAULT_NOT_FOUND = observed.errors.vault_connection_not_found!.message!;
const NOT_FOUND = 404;
const MINUTE_MS = 60_000;
/** The answers a lookup that found the stream and the event gives. */
const FOUND = new Set([202, 409]);

const messageOf = (reply: Reply) => (isErrorBody(reply.body) ? String(reply.body.message) : undefined);

/**
 * A negative cache in front of an operation: `keyOf` the key a request is remembered under, `missed`
 * whether its answer is a miss to remember, `served` whether an answer is one the cache would have
 * stopped, answered `kind` instead while the entry lives (a minute).
 */
function negativeCache(
  app: FaultHooks,
  key: 'redeliver' | 'vault',
  keyOf: (exchange: Exchange) => string,
  missed: (reply: Reply) => boolean,
  served: (reply: Reply) => boolean,
  kind: ApiErrorKind,
): void {
  const clock = capture(app, 'clock');
  const errors = capture(app, 'errors');
  const misses = new Map<string, number>();
  editReplies(app, [key], (reply, exchange) => {
    const cacheKey = keyOf(exchange);
    const now = clock().now();
    if (missed(reply)) {
      misses.set(cacheKey, now + MINUTE_MS);
      return reply;
    }
    const until = misses.get(cacheKey);
    return until !== undefined && until > now && served(reply) ? answeredInstead(reply, errors().reply(kind)) : reply;
  });
}

const decoded = (value: string | undefined) => {
  try {
    return decodeURIComponent(value ?? '');
  } catch {
    return value ?? '';
  }
};

export const stateAndErrorFaults = heldOutFamily([
  {
    id: 'ho42-go-sync-map-missing-event-keyed-by-stream',
    clause: 'redeliver.success.202',
    level: 'contract',
    bug: 'A Go redelivery service that remembers misses for a minute in a sync.Map (to spare the database a scraper\'s guesses) under the stream id alone, the event id left out of the key (missing.Store(streamID, ...) where the author meant streamID+"/"+eventID): after an unknown event of a stream is answered 404, the stream\'s failed event is answered 404 "The requested event does not exist." instead of 202; before that miss it is redelivered, and the failed event of the other stream still is.',
    install: (app) =>
      negativeCache(
        app,
        'redeliver',
        (exchange) => decoded(exchange.params.id),
        (reply) => reply.status === NOT_FOUND && messageOf(reply) === EVENT_NOT_FOUND,
        (reply) => FOUND.has(reply.status),
        'event_not_found',
      ),
  },
  {
    id: 'ho42-redis-missing-stream-key-cut',
    clause: 'redeliver.success.202',
    level: 'contract',
    bug: `A Node redelivery service whose Redis negative cache of unknown streams builds its key as \`missing:stream:\${id.slice(0, 20)}\` (a key budget copied from the client cache, whose ids it fitted) and checks it before the lookup: after a well-formed unknown stream id is answered 404, the existing stream whose id begins with the same 20 characters is answered 404 "${STREAM_NOT_FOUND}" for a minute instead of 202 (or 409); before that miss it is served, and a stream whose id begins otherwise is served as before.`,
    install: (app) =>
      negativeCache(
        app,
        'redeliver',
        (exchange) => decoded(exchange.params.id).slice(0, 20),
        (reply) => reply.status === NOT_FOUND && messageOf(reply) === STREAM_NOT_FOUND,
        (reply) => FOUND.has(reply.status) || (reply.status === NOT_FOUND && messageOf(reply) === EVENT_NOT_FOUND),
        'stream_not_found',
      ),
  },
  {
    id: 'ho42-caffeine-vault-misses-lowercased',
    clause: 'vault.response.record',
    level: 'contract',
    bug: `A Spring vault service with a Caffeine cache of ids known to be missing (expireAfterWrite one minute, against enumeration), whose key is the id lower-cased (the cache shared with the lookups of case-insensitive names): after a read of an existing connection's id in lower case (well formed, naming nothing) is answered 404, the connection itself is answered 404 "${VAULT_NOT_FOUND}" instead of its record; before that miss it is read as before, and the other connections still are.`,
    install: (app) =>
      negativeCache(
        app,
        'vault',
        (exchange) => decoded(exchange.params.id).toLowerCase(),
        (reply) => reply.status === NOT_FOUND && messageOf(reply) === VAULT_NOT_FOUND,
        (reply) => reply.status === 200,
        'vault_connection_not_found',
      ),
  },
  {
    id: 'ho42-go-once-value-redeliver-404-body',
    clause: 'errors.404.stream',
    level: 'observed',
    bug: `A Go redelivery handler whose 404 body is built by a package-level sync.OnceValue (to marshal it once), the closure reading the cause of the request that first calls it: after an unknown event is answered 404 "${EVENT_NOT_FOUND}", an unknown stream is answered 404 with that message instead of "${STREAM_NOT_FOUND}" (and the other way round when an unknown stream came first); the first 404 says its own cause, and the vault read's 404 is as before.`,
    install: (app) => {
      let first: unknown;
      editReplies(app, ['redeliver'], (reply) => {
        if (reply.status !== NOT_FOUND || !isErrorBody(reply.body)) return reply;
        first ??= reply.body;
        return { ...reply, body: first };
      });
    },
  },
]);
