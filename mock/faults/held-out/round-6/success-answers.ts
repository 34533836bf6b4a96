// Success answers: a vault timestamp formatted through a locale, the record serialised twice, an
// account name cut to another table's column width, a leap day rolled over by a hand-written date
// formatter, a fingerprint re-encoded as base64; ticket codes made of base64url, a ticket answered
// 200, and a 202 whose body is an empty list. Each changes one part of one answer; everything else
// is answered as before.
import { randomBytes } from 'node:crypto';
import { observed } from '../../../../specs/index.ts';
import { editSuccessReplies } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';

/** account_name's maximum length (spec sections 2.1 and 8). */
const ACCOUNT_NAME_MAX = 150;
/** The width of the connection-name column the account name was written into. */
const NAME_COLUMN = 128;
const TIMESTAMPS = ['created_at', 'updated_at', 'refreshed_at'] as const;
const CODE_LENGTH = observed.ticket.code_length;

type Fields = Record<string, unknown>;

function editRecord(reply: { body?: unknown }, edit: (record: Fields) => Fields): Fields | undefined {
  return reply.body !== null && typeof reply.body === 'object' ? edit(reply.body as Fields) : undefined;
}

export const successAnswerFaults = heldOutFamily([
  {
    id: 'ho6-vault-updated-at-through-locale',
    clause: 'vault.record.updated_at',
    level: 'contract',
    bug: 'updated_at formatted with toLocaleString("sv-SE", {timeZone: "UTC"}), the usual shortcut to an ISO-looking date, plus the milliseconds and Z: every record\'s updated_at reads "2024-09-12 12:52:16.553Z", a space where ISO 8601 has T, instead of a date-time; created_at and refreshed_at are unchanged.',
    install: (app) =>
      editSuccessReplies(app, 'vault', (reply) => {
        const body = editRecord(reply, (record) =>
          typeof record.updated_at === 'string' ? { ...record, updated_at: record.updated_at.replace('T', ' ') } : record,
        );
        return body ? { ...reply, body } : reply;
      }),
  },
  {
    id: 'ho6-vault-record-serialised-twice',
    clause: 'vault.response.record',
    level: 'contract',
    bug: "The vault read hands the framework JSON.stringify(record), which the framework serialises again: the body is a JSON string holding the record's text instead of the record object, still under application/json.",
    install: (app) => editSuccessReplies(app, 'vault', (reply) => ({ ...reply, body: JSON.stringify(reply.body) })),
  },
  {
    id: 'ho6-vault-account-name-cut-to-column',
    clause: 'vault.response.record',
    level: 'contract',
    bug: `account_name stored in a column of ${NAME_COLUMN} characters (the connection-name column's width) though it may hold ${ACCOUNT_NAME_MAX}: a connection whose account name is longer than ${NAME_COLUMN} characters is answered with it cut to ${NAME_COLUMN} instead of as stored; shorter account names are unchanged.`,
    install: (app) =>
      editSuccessReplies(app, 'vault', (reply) => {
        const body = editRecord(reply, (record) =>
          typeof record.account_name === 'string' && record.account_name.length > NAME_COLUMN
            ? { ...record, account_name: record.account_name.slice(0, NAME_COLUMN) }
            : record,
        );
        return body ? { ...reply, body } : reply;
      }),
  },
  {
    id: 'ho6-vault-leap-day-rolled-over',
    clause: 'vault.response.record',
    level: 'contract',
    bug: 'Timestamps re-formatted by a hand-written date formatter whose month table gives February 28 days in every year: a record whose timestamp falls on 29 February is answered with it on 1 March instead; timestamps on other days are unchanged.',
    install: (app) =>
      editSuccessReplies(app, 'vault', (reply) => {
        const body = editRecord(reply, (record) => {
          const rolled = { ...record };
          for (const field of TIMESTAMPS) {
            const value = record[field];
            if (typeof value === 'string') rolled[field] = value.replace(/^(\d{4})-02-29T/, '$1-03-01T');
          }
          return rolled;
        });
        return body ? { ...reply, body } : reply;
      }),
  },
  {
    id: 'ho6-vault-fingerprint-as-base64',
    clause: 'vault.response.shape',
    level: 'observed',
    bug: "The fingerprint's bytes written with toString('base64') where its hex text was meant: every record's fingerprint is 24 base64 characters instead of 32 lowercase hex ones; the other fields are unchanged.",
    install: (app) =>
      editSuccessReplies(app, 'vault', (reply) => {
        const body = editRecord(reply, (record) =>
          typeof record.fingerprint === 'string' && /^[0-9a-f]+$/.test(record.fingerprint)
            ? { ...record, fingerprint: Buffer.from(record.fingerprint, 'hex').toString('base64') }
            : record,
        );
        return body ? { ...reply, body } : reply;
      }),
  },
  {
    id: 'ho6-ticket-code-base64url',
    clause: 'sso-ticket.response.shape',
    level: 'observed',
    bug: `Ticket codes made with randomBytes(24).toString('base64url'): still ${CODE_LENGTH} characters, but most codes hold a "-" or "_", where the recorded codes are ${CODE_LENGTH} alphanumerics; the URL is otherwise unchanged.`,
    install: (app) => app.override('ticketCodes', () => () => randomBytes((CODE_LENGTH * 3) / 4).toString('base64url')),
  },
  {
    id: 'ho6-ticket-answered-200',
    clause: 'sso-ticket.success.status',
    level: 'observed',
    bug: "Ticket creation answers through the framework's ok() helper where created() was meant: a created ticket is answered 200 instead of 201, with the same body.",
    install: (app) => editSuccessReplies(app, 'sso-ticket', (reply) => ({ ...reply, status: 200 })),
  },
  {
    id: 'ho6-redeliver-202-empty-list',
    clause: 'redeliver.response.body',
    level: 'observed',
    bug: 'Redelivery answers the list of deliveries it queued synchronously, which is empty since the delivery is queued for later: the 202 body is [] instead of {}.',
    install: (app) => editSuccessReplies(app, 'redeliver', (reply) => ({ ...reply, body: [] })),
  },
]);
