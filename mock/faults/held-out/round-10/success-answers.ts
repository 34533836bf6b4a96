// Success answers: a record found by an index into a list sorted another way, a name title-cased
// for display, a content type appended by a second layer, and events looked for in the first
// stream only; and the observed rules: a time stored in seconds read back by new Date() (which
// takes milliseconds), and a ticket URL given a slash before its query. Each changes one value or
// one status; everything else is answered as before.
import { VAULT_RECORDS, editStore } from '../../support/store-view.ts';
import { editSuccessReplies } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { headerOf, withHeader } from '../support/answers.ts';

type Fields = Record<string, unknown>;

/** The record answered with `edit` applied to its fields. */
function editRecord(edit: (record: Fields) => Fields) {
  return <R extends { body?: unknown }>(reply: R): R =>
    reply.body !== null && typeof reply.body === 'object' ? { ...reply, body: edit(reply.body as Fields) } : reply;
}

/** Each word with its first letter in capitals, as a display helper writes titles. */
function titleCased(text: string): string {
  return text.replace(/\b([a-z])/g, (letter) => letter.toUpperCase());
}

export const successAnswerFaults = heldOutFamily([
  {
    id: 'ho10-vault-index-into-sorted-list',
    clause: 'vault.response.record',
    level: 'contract',
    bug: "The record found as sortedByName[ids.indexOf(id)], an index worked out in the list of ids (kept in creation order) and used in the list of records the listing sorts by name: reading a connection answers another connection's record (its id, name and fields) instead of its own; an unknown id is still answered 404.",
    install: (app) =>
      editStore(app, (store) => ({
        record: (which, id) => {
          if (which !== VAULT_RECORDS) return store.record(which, id);
          const records = store.records(which);
          const index = records.findIndex((record) => record.id === id);
          const sorted = [...records].sort((a, b) => String(a.name).localeCompare(String(b.name)));
          return index < 0 ? undefined : sorted[index];
        },
      })),
  },
  {
    id: 'ho10-vault-name-title-cased',
    clause: 'vault.response.record',
    level: 'contract',
    bug: 'The name passed through the dashboard\'s title helper on its way out (each word capitalised): "Team notifications" is answered "Team Notifications" and "Order webhook" "Order Webhook" instead of the connection\'s name; the other fields are answered as before.',
    install: (app) =>
      editSuccessReplies(
        app,
        'vault',
        editRecord((record) => (typeof record.name === 'string' ? { ...record, name: titleCased(record.name) } : record)),
      ),
  },
  {
    id: 'ho10-ticket-content-type-appended',
    clause: 'sso-ticket.response.content-type',
    level: 'contract',
    bug: 'The content type added by a response middleware with headers.append() on top of the one the route set, two values folded into one field: ticket creation answers Content-Type "application/json; charset=utf-8, application/json; charset=utf-8", which is no media type, instead of application/json; the vault read (another middleware chain) is answered as before.',
    install: (app) =>
      editSuccessReplies(app, 'sso-ticket', (reply) => {
        const type = headerOf(reply, 'content-type');
        return type === undefined ? reply : withHeader(reply, 'content-type', `${type}, ${type}`);
      }),
  },
  {
    id: 'ho10-events-looked-for-in-first-stream',
    clause: 'redeliver.success.202',
    level: 'contract',
    bug: "The event looked up in streams[0].events once the stream is found (a line from a test with one stream), whichever stream the path names: a failed event of the tenant's second stream is answered 404 instead of 202; a failed event of the first stream is redelivered as before.",
    install: (app) =>
      editStore(app, (store) => ({
        event: (streamId, eventId) => {
          const first = store.streams()[0];
          return store.stream(streamId) && first ? store.event(first.id, eventId) : undefined;
        },
      })),
  },
  {
    id: 'ho10-vault-refreshed-at-seconds-as-milliseconds',
    clause: 'vault.record.timestamps-order',
    level: 'observed',
    bug: 'refreshed_at stored as Unix seconds by the refresh job and read back with new Date(seconds), which takes milliseconds: "2024-10-01T08:30:00.000Z" is answered "1970-01-20T23:56:11.400Z", before the connection\'s created_at; created_at and updated_at are answered as before.',
    install: (app) =>
      editSuccessReplies(
        app,
        'vault',
        editRecord((record) =>
          typeof record.refreshed_at === 'string'
            ? { ...record, refreshed_at: new Date(Math.floor(Date.parse(record.refreshed_at) / 1000)).toISOString() }
            : record,
        ),
      ),
  },
  {
    id: 'ho10-ticket-url-slash-before-query',
    clause: 'sso-ticket.response.shape',
    level: 'observed',
    bug: 'The ticket URL built by a helper that ends every path with "/" (a trailing-slash normaliser) before the query is added: "https://tenant.example.com/self-service/connections-flow/?ticket=..." instead of ".../connections-flow?ticket=..."; host and code are as before.',
    install: (app) =>
      editSuccessReplies(app, 'sso-ticket', (reply) => {
        const body = reply.body as Fields | undefined;
        return typeof body?.ticket === 'string' ? { ...reply, body: { ...body, ticket: body.ticket.replace('?', '/?') } } : reply;
      }),
  },
]);
