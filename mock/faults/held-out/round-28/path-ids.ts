// Path ids: the vault read behind a Symfony front that trusts X-Original-URL (IIS's rewrite header)
// for the path it routes and reads the id from; redelivery loading the event by its own id and
// consulting the stream id only to word a 404; events read from RocksDB with an iterator's Seek()
// whose landing key is never compared with the one sought; and the observed rule: the unknown stream
// answered with Laravel's ModelNotFoundException message. Each lets its near miss through, or words
// its error otherwise; a plainly wrong id is answered as before.
import { basePath, observed } from '../../../../specs/index.ts';
import type { Exchange } from '../../../exchange.ts';
import { capture } from '../../support/captured.ts';
import { editReplies, editRequests, isErrorBody } from '../../support/route-edits.ts';
import { editStore } from '../../support/store-view.ts';
import { heldOutFamily } from '../held-out-fault.ts';

const STREAM_NOT_FOUND = observed.errors.stream_not_found!.message!;
const STREAM_SHAPE = observed.identifiers.event_stream;
/** A stream id of the service's shape (its prefix and length; the handler's own check). */
const wellFormedStream = (id: string) => id.startsWith(STREAM_SHAPE.prefix) && id.length === STREAM_SHAPE.length;
/** The headers a Symfony Request (with the IIS headers trusted) takes the path from. */
const REWRITE_HEADERS = ['x-original-url', 'x-rewrite-url'];
const VAULT_PATH = new RegExp(`^${basePath.replace(/[/.]/g, '\\$&')}/flows/vault/connections/([^/?#]+)(?:[?#].*)?$`);

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

export const pathIdFaults = heldOutFamily([
  {
    id: 'ho28-vault-id-symfony-x-original-url',
    clause: 'vault.response.record',
    level: 'contract',
    bug: 'The vault read served by a Symfony application behind IIS, with the IIS rewrite headers still trusted (Request::getPathInfo() read from X-Original-URL, the CVE-2018-14773 behaviour): a read of an unknown connection sent with "X-Original-URL: /api/v2/flows/vault/connections/<an existing id>" is answered 200 with that other connection\'s record instead of 404; a header naming an unknown id leaves the answer 404.',
    install: (app) =>
      editRequests(app, 'vault', (exchange) => {
        const named = REWRITE_HEADERS.map((name) => exchange.headers[name]).find((value): value is string => typeof value === 'string');
        const parsed = named === undefined ? null : VAULT_PATH.exec(named);
        return parsed ? { ...exchange, params: { ...exchange.params, id: parsed[1]! } } : exchange;
      }),
  },
  {
    id: 'ho28-stream-id-only-for-404-message',
    clause: 'redeliver.errors.404.stream',
    level: 'contract',
    bug: 'A Go (chi) redelivery handler that loads the event by its own id (event ids being unique across streams) and consults the stream id only to word the 404 when the event is missing: the failed event redelivered under an unknown stream id is accepted (202) instead of 404; an unknown event under an unknown stream is still 404.',
    install: (app) => {
      const store = capture(app, 'store');
      editRequests(app, 'redeliver', (exchange) => {
        const streamId = paramOf(exchange, 'id');
        const eventId = paramOf(exchange, 'event_id');
        if (streamId === undefined || eventId === undefined || !wellFormedStream(streamId) || store().stream(streamId)) return exchange;
        const owner = store()
          .streams()
          .find((stream) => stream.events.has(eventId));
        return owner ? withParam(exchange, 'id', owner.id) : exchange;
      });
    },
  },
  {
    id: 'ho28-event-id-rocksdb-seek',
    clause: 'redeliver.errors.404.event',
    level: 'contract',
    bug: 'Events kept in RocksDB under "<stream id>/<event id>" and read with it.Seek(key), which lands on the first key at or after the one sought, the handler checking only that the key found is still under the stream\'s prefix and never that it is the key sought: an unknown event id that sorts just before an event of the stream ("...L7" for "...L8") is answered as that event (the failed one redelivered, 202) instead of 404; an id that sorts after every event of the stream is still 404.',
    install: (app) =>
      editStore(app, (store) => ({
        event: (streamId, eventId) => {
          const found = store.event(streamId, eventId);
          if (found) return found;
          const stream = store.stream(streamId);
          if (!stream) return undefined;
          const landing = [...stream.events.keys()].filter((id) => id >= eventId).sort()[0];
          return landing === undefined ? undefined : stream.events.get(landing);
        },
      })),
  },
  {
    id: 'ho28-stream-404-laravel-model-not-found',
    clause: 'errors.404.stream',
    level: 'observed',
    bug: 'A Laravel redelivery controller that loads the stream with EventStream::findOrFail($id) and lets the framework render the ModelNotFoundException: an unknown stream is answered 404 "No query results for model [App\\Models\\EventStream] <id>" instead of "The requested stream does not exist."; the status and the other members are as before.',
    install: (app) =>
      editReplies(app, ['redeliver'], (reply, exchange) =>
        reply.status === 404 && isErrorBody(reply.body) && reply.body.message === STREAM_NOT_FOUND
          ? {
              ...reply,
              body: { ...reply.body, message: `No query results for model [App\\Models\\EventStream] ${paramOf(exchange, 'id') ?? ''}` },
            }
          : reply,
      ),
  },
]);
