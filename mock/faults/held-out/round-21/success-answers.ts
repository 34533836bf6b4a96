// Success answers: a vault record's created_at encoded by Swift's default date strategy (seconds
// since 2001 as a number), its environment written as an Erlang charlist (a list of character
// codes); and the observed rule: the ticket wrapped in a GraphQL gateway's "data" envelope. Each
// changes one thing of the answer; the rest is as before.
import { editSuccessReplies } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';

type Fields = Record<string, unknown>;
const isObject = (value: unknown): value is Fields => value !== null && typeof value === 'object' && !Array.isArray(value);
/** Foundation's reference date, 2001-01-01T00:00:00Z, in Unix seconds. */
const REFERENCE_DATE = 978_307_200;

export const successAnswerFaults = heldOutFamily([
  {
    id: 'ho21-vault-created-at-swift-reference-date',
    clause: 'vault.record.created_at',
    level: 'contract',
    bug: 'The record encoded by Swift\'s JSONEncoder with its default dateEncodingStrategy (.deferredToDate), which writes a Date as seconds since 2001-01-01: "created_at": 752112000.123 instead of "2024-10-31T00:00:00.123Z"; the other timestamps, kept as strings in the model, are as before.',
    install: (app) =>
      editSuccessReplies(app, 'vault', (reply) => {
        if (!isObject(reply.body) || typeof reply.body.created_at !== 'string') return reply;
        const ms = Date.parse(reply.body.created_at);
        return Number.isFinite(ms) ? { ...reply, body: { ...reply.body, created_at: ms / 1000 - REFERENCE_DATE } } : reply;
      }),
  },
  {
    id: 'ho21-vault-environment-erlang-charlist',
    clause: 'vault.record.environment',
    level: 'contract',
    bug: 'The record built in Erlang with environment kept as a charlist ("production" is [112,114,...]) and handed to a JSON encoder that writes lists as arrays: "environment": [112, 114, 111, ...] instead of "production"; the fields kept as binaries are strings as before.',
    install: (app) =>
      editSuccessReplies(app, 'vault', (reply) =>
        isObject(reply.body) && typeof reply.body.environment === 'string'
          ? { ...reply, body: { ...reply.body, environment: [...reply.body.environment].map((c) => c.codePointAt(0)!) } }
          : reply,
      ),
  },
  {
    id: 'ho21-ticket-graphql-data-envelope',
    clause: 'sso-ticket.response.shape',
    level: 'observed',
    bug: 'The ticket answered by a REST façade over a GraphQL mutation that passes the GraphQL result through: {"data": {"ticket": "https://..."}} instead of {"ticket": "https://..."}; the status is as before.',
    install: (app) =>
      editSuccessReplies(app, 'sso-ticket', (reply) => (isObject(reply.body) ? { ...reply, body: { data: reply.body } } : reply)),
  },
]);
