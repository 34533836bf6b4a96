// Which resource a path names and what state it is in: ids matched ignoring case or by their
// start, a type prefix taken for decoration, the state of an event read before its stream is
// looked up, and the refusals of redelivery and the record of the vault read a serializer or a
// handler gets almost right. Each changes the answer for one near miss; the exact ids and the
// far wrong ones are answered as before.
import { observed } from '../../../specs/index.ts';
import type { StoredEvent } from '../../store.ts';
import { capture } from '../support/captured.ts';
import { compileCheck, replaceParameterCheck } from '../support/check-edits.ts';
import { editErrors } from '../support/error-edits.ts';
import { sameIgnoringCase } from '../support/near-misses.ts';
import { editReplies, editSuccessReplies, withStatus } from '../support/route-edits.ts';
import { editStore, recordLookup, VAULT_RECORDS } from '../support/store-view.ts';
import { heldOutFamily } from './held-out-fault.ts';
import { answeredInstead } from './support/answers.ts';

const streamShape = observed.identifiers.event_stream;
/** The status a validation error of the framework has, which the state refusal is filed under. */
const BAD_REQUEST = 400;

/** Any resource's type prefix (est_, evt_, ssp_, ac_...), which one fault takes for decoration. */
const ANY_TYPE_PREFIX = '[a-z]{2,3}_';

function decoded(segment: string | undefined): string | undefined {
  try {
    return segment === undefined ? undefined : decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

export const idAndStateFaults = heldOutFamily([
  {
    id: 'ho-event-ids-case-insensitive',
    clause: 'redeliver.errors.404.event',
    level: 'contract',
    bug: 'Events kept in a table with a case-insensitive collation: redelivery of an existing event id with one letter in the other case is accepted (202) instead of 404.',
    install: (app) =>
      editStore(app, (store) => ({
        event: (streamId: string, eventId: string): StoredEvent | undefined =>
          store.event(streamId, eventId) ??
          [...(store.stream(streamId)?.events.values() ?? [])].find((e) => sameIgnoringCase(e.id, eventId)),
      })),
  },
  {
    id: 'ho-vault-id-matched-by-prefix',
    clause: 'vault.response.record',
    level: 'contract',
    bug: "Connections looked up with LIKE 'id%' (the query of a search endpoint reused): an unknown id that is the start of an existing connection's longer id is answered 200 with that connection's record instead of 404.",
    install: (app) =>
      editStore(app, (store) =>
        recordLookup(
          store,
          VAULT_RECORDS,
          (id) => store.record(VAULT_RECORDS, id) ?? store.records(VAULT_RECORDS).find((record) => record.id.startsWith(id)),
        ),
      ),
  },
  {
    id: 'ho-stream-id-type-prefix-ignored',
    clause: 'redeliver.errors.404.stream',
    level: 'contract',
    bug: `Ids whose type prefix is decoration, stripped before the lookup (the table keys on the ${streamShape.length - streamShape.prefix.length}-character body): redelivery under evt_<the body of an existing stream id> is taken for that stream and accepted instead of 404 (and the observed 400 for an id of the wrong type goes too).`,
    install(app) {
      replaceParameterCheck(app, 'redeliver', 'path', 'id', () =>
        compileCheck({
          type: 'string',
          minLength: streamShape.length,
          maxLength: streamShape.length,
          pattern: `^${ANY_TYPE_PREFIX}[${observed.identifiers.base58_alphabet}]{${streamShape.length - streamShape.prefix.length}}$`,
        }),
      );
      const body = (id: string) => id.slice(id.indexOf('_') + 1);
      editStore(app, (store) => {
        const byBody = (id: string) => store.stream(id) ?? store.streams().find((stream) => body(stream.id) === body(id));
        return {
          stream: byBody,
          event: (streamId: string, eventId: string) => {
            const stream = byBody(streamId);
            return stream ? store.event(stream.id, eventId) : undefined;
          },
        };
      });
    },
  },
  {
    id: 'ho-event-state-read-before-stream',
    clause: 'redeliver.errors.404.stream',
    level: 'contract',
    bug: 'A handler that loads the event by its id first and checks its state before it looks at the stream: redelivery of an existing delivered event under a stream that does not exist is answered 409 instead of 404 (a failed event there still gets 404).',
    install(app) {
      const store = capture(app, 'store');
      const errors = capture(app, 'errors');
      editReplies(app, ['redeliver'], (reply, exchange) => {
        if (reply.status !== 404) return reply;
        const streamId = decoded(exchange.params.id);
        const eventId = decoded(exchange.params.event_id);
        if (streamId === undefined || eventId === undefined || store().stream(streamId)) return reply;
        const event = store()
          .streams()
          .map((stream) => stream.events.get(eventId))
          .find((found) => found !== undefined);
        return event && event.status !== 'failed' ? answeredInstead(reply, errors().reply('event_not_redeliverable')) : reply;
      });
    },
  },
  {
    id: 'ho-redeliver-409-as-400',
    clause: 'redeliver.errors.409.state',
    level: 'contract',
    bug: 'The state refusal raised as a validation error of the framework: redelivery of an event whose state does not allow it is answered 400 (same message) instead of 409.',
    install: (app) => editErrors(app, ['event_not_redeliverable'], (reply) => withStatus(reply, BAD_REQUEST)),
  },
  {
    id: 'ho-vault-record-false-ready-omitted',
    clause: 'vault.record.ready',
    level: 'contract',
    bug: 'A serializer that skips falsy values ("if (value) out[key] = value"): a connection that is not ready comes back without its ready field instead of ready: false.',
    install: (app) =>
      editSuccessReplies(app, 'vault', (reply) => {
        const record = reply.body as Record<string, unknown>;
        return { ...reply, body: Object.fromEntries(Object.entries(record).filter(([, value]) => value !== false)) };
      }),
  },
]);
