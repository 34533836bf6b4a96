// Success answers: unset optional columns answered as empty strings, the record of the last read
// answered for an id that names none, updated_at in SQL's DATETIME form, and a name padded as a
// CHAR column; and the observed rules: a repeated read answered 203 by a cache, the ODM's version
// key left in the record, and a ticket URL with its default port written out. Each changes one
// value or one status; everything else is answered as before.
import { capture } from '../../support/captured.ts';
import { editReplies, editSuccessReplies, isErrorBody } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { answeredInstead } from '../support/answers.ts';

type Fields = Record<string, unknown>;

const NAME_COLUMN_WIDTH = 150;
const UNSET_AS_EMPTY = ['environment', 'account_name'];

/** The record answered with `edit` applied to its fields. */
function editRecord(edit: (record: Fields) => Fields) {
  return <R extends { body?: unknown }>(reply: R): R =>
    reply.body !== null && typeof reply.body === 'object' ? { ...reply, body: edit(reply.body as Fields) } : reply;
}

export const successAnswerFaults = heldOutFamily([
  {
    id: 'ho9-vault-unset-optionals-empty',
    clause: 'vault.record.environment',
    level: 'contract',
    bug: `The record read from a table whose ${UNSET_AS_EMPTY.join(' and ')} columns default to '' instead of NULL: a connection without them is answered with "environment": "" and "account_name": "" (shorter than their minimum of 1) instead of without them; a connection that has them is answered as before.`,
    install: (app) =>
      editSuccessReplies(
        app,
        'vault',
        editRecord((record) => ({ ...record, ...Object.fromEntries(UNSET_AS_EMPTY.filter((f) => !(f in record)).map((f) => [f, ''])) })),
      ),
  },
  {
    id: 'ho9-vault-record-left-from-last-read',
    clause: 'vault.response.record',
    level: 'contract',
    bug: 'The record kept in a module-level variable the lookup assigns only when it finds one (let record; ... if (found) record = found), never cleared between requests: once a connection has been read, a well-formed id that names no connection is answered 200 with that connection instead of 404; before any read it is still 404.',
    install: (app) => {
      const errors = capture(app, 'errors');
      let last: unknown;
      editReplies(app, ['vault'], (reply) => {
        if (reply.status === 200) last = reply.body;
        const unknown =
          reply.status === 404 && isErrorBody(reply.body) && reply.body.message === errors().message('vault_connection_not_found');
        return unknown && last !== undefined ? answeredInstead(reply, { status: 200, headers: { ...reply.headers }, body: last }) : reply;
      });
    },
  },
  {
    id: 'ho9-vault-updated-at-sql-datetime',
    clause: 'vault.record.updated_at',
    level: 'contract',
    bug: 'updated_at written in the database\'s DATETIME form, a space between date and time where ISO 8601 has "T" ("2024-09-12 12:52:16.553Z"); created_at and refreshed_at are answered as before.',
    install: (app) =>
      editSuccessReplies(
        app,
        'vault',
        editRecord((record) =>
          typeof record.updated_at === 'string' ? { ...record, updated_at: record.updated_at.replace('T', ' ') } : record,
        ),
      ),
  },
  {
    id: 'ho9-vault-name-char-padded',
    clause: 'vault.response.record',
    level: 'contract',
    bug: `name stored in a CHAR(${NAME_COLUMN_WIDTH}) column, which pads with spaces, and answered as read: "Team notifications" comes back followed by spaces to ${NAME_COLUMN_WIDTH} characters instead of as the connection's name; a name of ${NAME_COLUMN_WIDTH} characters is answered as before.`,
    install: (app) =>
      editSuccessReplies(
        app,
        'vault',
        editRecord((record) => (typeof record.name === 'string' ? { ...record, name: record.name.padEnd(NAME_COLUMN_WIDTH) } : record)),
      ),
  },
  {
    id: 'ho9-vault-repeat-answered-203',
    clause: 'vault.success.status',
    level: 'observed',
    bug: 'A response cache in front of the read that answers what it serves from the cache with 203 Non-Authoritative Information: the second read of a connection is answered 203 instead of 200; the first read of each connection is 200.',
    install: (app) => {
      const served = new Set<string>();
      editSuccessReplies(app, 'vault', (reply, exchange) => {
        const key = exchange.params.id ?? '';
        if (!served.has(key)) {
          served.add(key);
          return reply;
        }
        return { ...reply, status: 203 };
      });
    },
  },
  {
    id: 'ho9-vault-odm-version-key',
    clause: 'vault.response.shape',
    level: 'observed',
    bug: 'The record answered as the ODM document it was read as, with the version key the ODM adds ("__v": 0), where the record has only the fields of section 2.1.',
    install: (app) =>
      editSuccessReplies(
        app,
        'vault',
        editRecord((record) => ({ ...record, __v: 0 })),
      ),
  },
  {
    id: 'ho9-ticket-url-default-port',
    clause: 'sso-ticket.response.shape',
    level: 'observed',
    bug: 'The ticket URL formatted as `${protocol}//${host}:${port}${path}` with the port of the https scheme always written: "https://tenant.example.com:443/self-service/connections-flow?ticket=..." instead of "https://tenant.example.com/...".',
    install: (app) =>
      editSuccessReplies(app, 'sso-ticket', (reply) => {
        const body = reply.body as Fields | undefined;
        const ticket = body?.ticket;
        if (typeof ticket !== 'string') return reply;
        const url = /^(https:\/\/[^/:]+)(\/.*)$/.exec(ticket);
        return url ? { ...reply, body: { ...body, ticket: `${url[1]!}:443${url[2]!}` } } : reply;
      }),
  },
]);
