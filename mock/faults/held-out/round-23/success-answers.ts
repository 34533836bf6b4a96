// Success answers: a vault read served by an Elasticsearch match query (an unknown id scores on the
// "ac" token every id shares), updated_at written in the ISO 8601 basic format of AWS Signature V4's
// X-Amz-Date, the ticket URL passed whole through Elixir's URI.encode_www_form; and the observed
// rules: the ticket URL built with Node's path.join (which makes "https://" "https:/"), an unset
// refreshed_at written as Go's zero time. Each changes one thing of the answer; the rest is as
// before.
import { editStore, recordLookup, VAULT_RECORDS } from '../../support/store-view.ts';
import { editSuccessReplies } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';

type Fields = Record<string, unknown>;
const isObject = (value: unknown): value is Fields => value !== null && typeof value === 'object' && !Array.isArray(value);
/** Elasticsearch's standard analyzer, as far as ids go: lower-cased runs of letters and digits. */
const analyzed = (text: string) =>
  text
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((term) => term !== '');
/** AWS Signature V4's X-Amz-Date: ISO 8601 basic format, to the second, in UTC. */
const amzDate = (iso: string) => {
  const ms = Date.parse(iso);
  return Number.isFinite(ms)
    ? new Date(ms)
        .toISOString()
        .replace(/\.\d{3}Z$/, 'Z')
        .replace(/[-:]/g, '')
    : undefined;
};
/** Go's time.Time{} as the service's layout "2006-01-02T15:04:05.000Z07:00" writes it in UTC. */
const GO_ZERO_TIME = '0001-01-01T00:00:00.000Z';

export const successAnswerFaults = heldOutFamily([
  {
    id: 'ho23-vault-read-elasticsearch-match',
    clause: 'vault.response.record',
    level: 'contract',
    bug: 'Connections read from an Elasticsearch index with a match query on id (analysed text) where a term query was meant, the best hit answered: an id naming no connection, whose "ac" token every id shares, is answered 200 with the first connection\'s record (another id) instead of 404; an existing id still gets its own record.',
    install: (app) =>
      editStore(app, (store) =>
        recordLookup(store, VAULT_RECORDS, (id) => {
          const exact = store.record(VAULT_RECORDS, id);
          if (exact) return exact;
          const terms = new Set(analyzed(id));
          let best: { score: number; record: ReturnType<typeof store.record> } = { score: 0, record: undefined };
          for (const record of store.records(VAULT_RECORDS)) {
            const score = analyzed(String(record.id)).filter((term) => terms.has(term)).length;
            if (score > best.score) best = { score, record };
          }
          return best.record;
        }),
      ),
  },
  {
    id: 'ho23-updated-at-amz-basic-format',
    clause: 'vault.record.updated_at',
    level: 'contract',
    bug: 'updated_at formatted by the helper the service wrote for AWS Signature V4, whose X-Amz-Date is ISO 8601\'s basic format: "20240912T125216Z" instead of an RFC 3339 date-time such as "2024-09-12T12:52:16.553Z" (format date-time); created_at and refreshed_at are as before.',
    install: (app) =>
      editSuccessReplies(app, 'vault', (reply) => {
        if (!isObject(reply.body) || typeof reply.body.updated_at !== 'string') return reply;
        const basic = amzDate(reply.body.updated_at);
        return basic === undefined ? reply : { ...reply, body: { ...reply.body, updated_at: basic } };
      }),
  },
  {
    id: 'ho23-ticket-url-www-form-encoded',
    clause: 'sso-ticket.response.ticket',
    level: 'contract',
    bug: 'The ticket URL passed through URI.encode_www_form/1 by an Elixir view, the helper meant for the ticket code in the query, applied to the whole URL: "https%3A%2F%2Ftenant.example.com%2Fself-service%2Fconnections-flow%3Fticket%3D..." instead of a URL; the code and the host are as before.',
    install: (app) =>
      editSuccessReplies(app, 'sso-ticket', (reply) =>
        isObject(reply.body) && typeof reply.body.ticket === 'string'
          ? { ...reply, body: { ...reply.body, ticket: encodeURIComponent(reply.body.ticket) } }
          : reply,
      ),
  },
  {
    id: 'ho23-ticket-url-path-join',
    clause: 'sso-ticket.response.shape',
    level: 'observed',
    bug: 'The ticket URL built with Node\'s path.posix.join(`https://${host}`, "/self-service/connections-flow"), which normalises the "//" after the scheme: "https:/tenant.example.com/self-service/connections-flow?ticket=..." instead of "https://tenant.example.com/...", which a WHATWG parser mends but an RFC 3986 one reads as a path with no host; the code is as before.',
    install: (app) =>
      editSuccessReplies(app, 'sso-ticket', (reply) =>
        isObject(reply.body) && typeof reply.body.ticket === 'string' && reply.body.ticket.startsWith('https://')
          ? { ...reply, body: { ...reply.body, ticket: `https:/${reply.body.ticket.slice('https://'.length)}` } }
          : reply,
      ),
  },
  {
    id: 'ho23-refreshed-at-go-zero-time',
    clause: 'vault.record.timestamps-order',
    level: 'observed',
    bug: `refreshed_at a time.Time field of a Go struct, where encoding/json's omitempty never omits a struct: a connection never refreshed answers "refreshed_at": "${GO_ZERO_TIME}" (Go's zero time, two thousand years before its created_at) instead of leaving the field out; a connection refreshed keeps its own time.`,
    install: (app) =>
      editSuccessReplies(app, 'vault', (reply) =>
        isObject(reply.body) && typeof reply.body.id === 'string' && reply.body.refreshed_at === undefined
          ? { ...reply, body: { ...reply.body, refreshed_at: GO_ZERO_TIME } }
          : reply,
      ),
  },
]);
