// Success answers: the stored fingerprint hashed once more by an entity's setter as the row is
// loaded, timestamps formatted with date-fns's DD (the day of the year), and the redelivery's 202
// kept for clients that send Prefer: respond-async; and the observed rules: the ticket's code
// written as an OAuth "code" parameter, and the 202 body echoing the request's. Each changes one
// value, one status or one member; everything else is answered as before.
import { createHash } from 'node:crypto';
import { isJsonMediaType } from '../../../stages/json-body.ts';
import { editSuccessReplies } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';

type Fields = Record<string, unknown>;
const TIMESTAMPS = ['created_at', 'updated_at', 'refreshed_at'];
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T/;
const DAY_MS = 86_400_000;

/** The record answered with `edit` applied to its fields. */
function editRecord(edit: (record: Fields) => Fields) {
  return <R extends { body?: unknown }>(reply: R): R =>
    reply.body !== null && typeof reply.body === 'object' && !Array.isArray(reply.body)
      ? { ...reply, body: edit(reply.body as Fields) }
      : reply;
}

/** An ISO date-time with its day of the month replaced by its day of the year (date-fns's DD), at least two digits. */
function withDayOfYear(iso: string): string {
  const time = Date.parse(iso);
  if (!ISO_DATE_TIME.test(iso) || Number.isNaN(time)) return iso;
  const date = new Date(time);
  const day = Math.floor((time - Date.UTC(date.getUTCFullYear(), 0, 1)) / DAY_MS) + 1;
  return `${iso.slice(0, 8)}${String(day).padStart(2, '0')}${iso.slice(10)}`;
}

export const successAnswerFaults = heldOutFamily([
  {
    id: 'ho16-fingerprint-hashed-on-load',
    clause: 'vault.response.record',
    level: 'contract',
    bug: "The fingerprint column mapped through an entity setter that hashes what it is given (written for the raw certificate when a connection is created) and that the ORM calls again when it loads the row: every read answers md5(<the stored fingerprint>), still 32 lowercase hexadecimal digits, instead of the connection's fingerprint; the other fields are as before.",
    install: (app) =>
      editSuccessReplies(
        app,
        'vault',
        editRecord((record) =>
          typeof record.fingerprint === 'string'
            ? { ...record, fingerprint: createHash('md5').update(record.fingerprint).digest('hex') }
            : record,
        ),
      ),
  },
  {
    id: 'ho16-timestamps-day-of-year',
    clause: 'vault.record.updated_at',
    level: 'contract',
    bug: `Timestamps formatted with date-fns's format(date, "yyyy-MM-DD'T'HH:mm:ss.SSS'Z'") once the RangeError it throws for DD was silenced with useAdditionalDayOfYearTokens: true, DD being the day of the year: updated_at "2024-09-12T12:52:16.553Z" is answered "2024-09-256T12:52:16.553Z", no date-time (created_at and refreshed_at likewise); a time in January, whose day of the year is its day of the month, is as before.`,
    install: (app) =>
      editSuccessReplies(
        app,
        'vault',
        editRecord((record) =>
          Object.fromEntries(
            Object.entries(record).map(([name, value]) => [
              name,
              TIMESTAMPS.includes(name) && typeof value === 'string' ? withDayOfYear(value) : value,
            ]),
          ),
        ),
      ),
  },
  {
    id: 'ho16-redeliver-202-only-when-async-preferred',
    clause: 'redeliver.success.202',
    level: 'contract',
    bug: 'The redelivery answered through a job helper that follows RFC 7240 one way round, 202 when the client sends Prefer: respond-async and 200 otherwise (the job queued either way): a redelivery without that header is answered 200 {} instead of 202; with Prefer: respond-async it is answered 202 as before.',
    install: (app) =>
      editSuccessReplies(app, 'redeliver', (reply, exchange) =>
        /(^|[\s,;])respond-async\b/i.test(String(exchange.headers.prefer ?? '')) ? reply : { ...reply, status: 200 },
      ),
  },
  {
    id: 'ho16-ticket-code-parameter',
    clause: 'sso-ticket.response.shape',
    level: 'observed',
    bug: 'The ticket URL built by the helper that writes OAuth authorization-code redirects (url.searchParams.set("code", ...)): every ticket is "https://<host>/self-service/connections-flow?code=<code>" instead of "...?ticket=<code>"; the host, the path and the code are as before.',
    install: (app) =>
      editSuccessReplies(
        app,
        'sso-ticket',
        editRecord((body) => (typeof body.ticket === 'string' ? { ...body, ticket: body.ticket.replace('?ticket=', '?code=') } : body)),
      ),
  },
  {
    id: 'ho16-redeliver-202-echoes-body',
    clause: 'redeliver.response.body',
    level: 'observed',
    bug: 'The 202 written as res.status(202).json(req.body), a stub\'s echo left in, which gives {} while the body parser has nothing to read: a redelivery sent with a JSON body (a client\'s {"reason": "retry"}) is answered with that body instead of {}; a redelivery without a body is answered {} as before.',
    install: (app) =>
      editSuccessReplies(app, 'redeliver', (reply, exchange) => {
        if (exchange.body.length === 0 || !isJsonMediaType(exchange.headers['content-type'])) return reply;
        try {
          const sent: unknown = JSON.parse(exchange.body.toString('utf8'));
          return sent !== null && typeof sent === 'object' ? { ...reply, body: sent } : reply;
        } catch {
          return reply;
        }
      }),
  },
]);
