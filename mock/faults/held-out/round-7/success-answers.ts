// Success answers: vault records cached by caller, field names camel-cased, created_at cut to a
// date, timestamps in microseconds, created_at rounded up to the second, app_id lower-cased; ticket
// codes one character short. Each changes one part of one answer; everything else is answered as
// before.
import { observed } from '../../../../specs/index.ts';
import type { Reply } from '../../../exchange.ts';
import { editReplies, editSuccessReplies } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';

const TIMESTAMPS = ['created_at', 'updated_at', 'refreshed_at'] as const;
const CODE_LENGTH = observed.ticket.code_length;

type Fields = Record<string, unknown>;

function editRecord(reply: Reply, edit: (record: Fields) => Fields): Reply {
  return reply.body !== null && typeof reply.body === 'object' && !Array.isArray(reply.body)
    ? { ...reply, body: edit(reply.body as Fields) }
    : reply;
}

const camel = (name: string) => name.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());

export const successAnswerFaults = heldOutFamily([
  {
    id: 'ho7-vault-cached-by-caller',
    clause: 'vault.response.record',
    level: 'contract',
    bug: 'Vault reads cached under the Authorization header alone, the path left out of the cache key: a caller that reads one connection and then another with the same token is answered the first record again instead of the second; a read with another token gets the record it names.',
    install: (app) => {
      const cache = new Map<string, Reply>();
      editReplies(app, ['vault'], (reply, exchange) => {
        const key = exchange.headers.authorization;
        if (reply.status !== 200 || key === undefined) return reply;
        const cached = cache.get(key);
        if (cached) return { ...reply, body: cached.body };
        cache.set(key, reply);
        return reply;
      });
    },
  },
  {
    id: 'ho7-vault-fields-camel-cased',
    clause: 'vault.record.app_id',
    level: 'contract',
    bug: "The vault record passed through the camelCase serializer the service's newer APIs use: the answer has appId, createdAt, updatedAt (and accountName, refreshedAt) instead of app_id, created_at and updated_at; id, name, ready and fingerprint are unchanged.",
    install: (app) =>
      editSuccessReplies(app, 'vault', (reply) =>
        editRecord(reply, (record) => Object.fromEntries(Object.entries(record).map(([name, value]) => [camel(name), value]))),
      ),
  },
  {
    id: 'ho7-vault-created-at-cut-to-date',
    clause: 'vault.record.created_at',
    level: 'contract',
    bug: 'created_at written with toISOString().slice(0, 10), the formatter of a date-only column: every record\'s created_at is "2024-09-12", a date without a time, instead of a date-time; updated_at is unchanged.',
    install: (app) =>
      editSuccessReplies(app, 'vault', (reply) =>
        editRecord(reply, (record) =>
          typeof record.created_at === 'string' ? { ...record, created_at: record.created_at.slice(0, 10) } : record,
        ),
      ),
  },
  {
    id: 'ho7-vault-timestamps-in-microseconds',
    clause: 'vault.response.shape',
    level: 'observed',
    bug: 'Timestamps formatted by a serializer that writes microseconds (Python\'s isoformat of the stored time): every timestamp reads "2024-09-12T12:52:16.553000Z", six fraction digits, instead of milliseconds; the instant is unchanged.',
    install: (app) =>
      editSuccessReplies(app, 'vault', (reply) =>
        editRecord(reply, (record) => {
          const edited = { ...record };
          for (const field of TIMESTAMPS) {
            const value = record[field];
            if (typeof value === 'string') edited[field] = value.replace(/\.(\d{3})Z$/, '.$1000Z');
          }
          return edited;
        }),
      ),
  },
  {
    id: 'ho7-vault-created-at-rounded-up',
    clause: 'vault.record.timestamps-order',
    level: 'observed',
    bug: 'created_at rounded up to the whole second (Math.ceil of the epoch seconds, for a column without fractions): a connection created and last updated in the same second answers a created_at after its updated_at (12:52:17.000 against 12:52:16.553); a created_at already on a whole second is unchanged.',
    install: (app) =>
      editSuccessReplies(app, 'vault', (reply) =>
        editRecord(reply, (record) => {
          if (typeof record.created_at !== 'string') return record;
          const ms = Date.parse(record.created_at);
          return Number.isNaN(ms) ? record : { ...record, created_at: new Date(Math.ceil(ms / 1000) * 1000).toISOString() };
        }),
      ),
  },
  {
    id: 'ho7-vault-app-id-lowercased',
    clause: 'vault.response.shape',
    level: 'observed',
    bug: 'app_id passed through the slug helper that names the provider\'s icon file (toLowerCase()): every record answers app_id "slack", "http" instead of the upper-case provider name; the other fields are unchanged.',
    install: (app) =>
      editSuccessReplies(app, 'vault', (reply) =>
        editRecord(reply, (record) => (typeof record.app_id === 'string' ? { ...record, app_id: record.app_id.toLowerCase() } : record)),
      ),
  },
  {
    id: 'ho7-ticket-code-one-short',
    clause: 'sso-ticket.response.shape',
    level: 'observed',
    bug: `The ticket code's characters drawn in a loop written for (let i = 1; i < ${CODE_LENGTH}; i++): every code is ${CODE_LENGTH - 1} alphanumerics instead of ${CODE_LENGTH}; the URL is otherwise unchanged.`,
    install: (app) => app.override('ticketCodes', (codes) => () => codes().slice(1)),
  },
]);
