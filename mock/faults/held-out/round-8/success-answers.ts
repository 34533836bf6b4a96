// Success answers: updated_at given a second "Z", created_at with a two-digit year, the id answered
// as the storage layer's composite key, a name that keeps the quotes of a CSV round trip; and the
// observed rules: the fingerprint in its display form, refreshed_at with a 0-based month, the
// ticket code joined to the URL with "&", and the 202 of redelivery written by the framework's
// sendStatus. Each changes one part of one answer; everything else is answered as before.
import { observed } from '../../../../specs/index.ts';
import type { Reply } from '../../../exchange.ts';
import { editSuccessReplies, withContentType } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';

/** What Express's res.sendStatus(202) writes: the reason phrase as plain text. */
const SEND_STATUS_TYPE = 'text/plain; charset=utf-8';
const TICKET_QUERY = `?${observed.ticket.query_parameter}=`;

type Fields = Record<string, unknown>;

function editRecord(reply: Reply, edit: (record: Fields) => Fields): Reply {
  return reply.body !== null && typeof reply.body === 'object' && !Array.isArray(reply.body)
    ? { ...reply, body: edit(reply.body as Fields) }
    : reply;
}

/** The record with one string field changed by `edit` (other records and fields unchanged). */
function editField(reply: Reply, field: string, edit: (value: string, record: Fields) => string): Reply {
  return editRecord(reply, (record) => (typeof record[field] === 'string' ? { ...record, [field]: edit(record[field], record) } : record));
}

export const successAnswerFaults = heldOutFamily([
  {
    id: 'ho8-vault-updated-at-double-zone',
    clause: 'vault.record.updated_at',
    level: 'contract',
    bug: 'updated_at passed through a helper that appends "Z" to the database\'s text (written for a column of naive UTC times) where this column already ends in "Z": every record answers updated_at "2024-09-12T12:52:16.553ZZ", which is no date-time, instead of an ISO 8601 date-time; created_at is unchanged.',
    install: (app) => editSuccessReplies(app, 'vault', (reply) => editField(reply, 'updated_at', (value) => `${value}Z`)),
  },
  {
    id: 'ho8-vault-created-at-two-digit-year',
    clause: 'vault.record.created_at',
    level: 'contract',
    bug: 'created_at formatted with strftime("%y-%m-%dT%H:%M:%S.%fZ"), %y where %Y was meant: every record answers created_at "24-09-12T12:52:16.553Z", a two-digit year, instead of an ISO 8601 date-time; updated_at is unchanged.',
    install: (app) =>
      editSuccessReplies(app, 'vault', (reply) => editField(reply, 'created_at', (value) => value.replace(/^\d{2}(\d{2}-)/, '$1'))),
  },
  {
    id: 'ho8-vault-id-answered-as-composite-key',
    clause: 'vault.record.id',
    level: 'contract',
    bug: "The record's id answered as the storage layer's composite key, the provider and the id (\"SLACK:ac_...\"): a connection's id comes back longer than 30 characters (31 for a SLACK connection of 25) instead of the id of at most 30; the other fields are unchanged.",
    install: (app) =>
      editSuccessReplies(app, 'vault', (reply) =>
        editField(reply, 'id', (id, record) => (typeof record.app_id === 'string' ? `${record.app_id}:${id}` : id)),
      ),
  },
  {
    id: 'ho8-vault-name-keeps-csv-quotes',
    clause: 'vault.record.name',
    level: 'contract',
    bug: 'Names imported from a CSV export that quotes fields with commas, read back by a naive split that keeps the quotes: a name with a comma comes back wrapped in double quotes, so the 150-character name answers 152 characters instead of at most 150; names without a comma are unchanged.',
    install: (app) =>
      editSuccessReplies(app, 'vault', (reply) => editField(reply, 'name', (name) => (name.includes(',') ? `"${name}"` : name))),
  },
  {
    id: 'ho8-vault-fingerprint-colon-separated',
    clause: 'vault.response.shape',
    level: 'observed',
    bug: 'The fingerprint written by the helper that formats it for display, its bytes separated by colons: every record answers "6d:8c:d5:..." (47 characters) instead of 32 lowercase hex characters; the bytes are unchanged.',
    install: (app) =>
      editSuccessReplies(app, 'vault', (reply) =>
        editField(reply, 'fingerprint', (value) => (/^[0-9a-f]{32}$/.test(value) ? value.match(/../g)!.join(':') : value)),
      ),
  },
  {
    id: 'ho8-vault-refreshed-month-zero-based',
    clause: 'vault.record.timestamps-order',
    level: 'observed',
    bug: 'refreshed_at formatted by hand with getUTCMonth(), which counts months from 0, where getUTCMonth() + 1 was meant: a connection refreshed on 2024-10-01 answers refreshed_at "2024-09-01T08:30:00.000Z", before its created_at 2024-09-12, instead of the time of its refresh; created_at and updated_at are unchanged.',
    install: (app) =>
      editSuccessReplies(app, 'vault', (reply) =>
        editField(reply, 'refreshed_at', (value) => {
          const time = new Date(value);
          return Number.isNaN(time.getTime())
            ? value
            : `${value.slice(0, 5)}${String(time.getUTCMonth()).padStart(2, '0')}${value.slice(7)}`;
        }),
      ),
  },
  {
    id: 'ho8-ticket-query-joined-with-ampersand',
    clause: 'sso-ticket.response.shape',
    level: 'observed',
    bug: 'The ticket code added to the flow\'s URL by a helper that always joins a parameter with "&" (written for URLs that already carry a query): every ticket is "https://<host>/self-service/connections-flow&ticket=<code>", whose path swallows the code, instead of "...connections-flow?ticket=<code>"; host and code are unchanged.',
    install: (app) =>
      editSuccessReplies(app, 'sso-ticket', (reply) =>
        editField(reply, 'ticket', (ticket) => ticket.replace(TICKET_QUERY, `&${TICKET_QUERY.slice(1)}`)),
      ),
  },
  {
    id: 'ho8-redeliver-answered-by-send-status',
    clause: 'redeliver.response.body',
    level: 'observed',
    bug: 'The 202 of redelivery written with the web framework\'s sendStatus(202), which sends the reason phrase as the body: every accepted redelivery answers "Accepted" with content type text/plain instead of {} with application/json; charset=utf-8; the status is unchanged. (The mock writes every body as JSON, so the text arrives quoted.)',
    install: (app) => editSuccessReplies(app, 'redeliver', (reply) => ({ ...withContentType(reply, SEND_STATUS_TYPE), body: 'Accepted' })),
  },
]);
