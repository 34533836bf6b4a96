// Success answers: a record merged into one defaults object shared by every request, a ticket
// answered as text/json; and the observed rules: a timestamp's fraction written with a locale's
// decimal comma, and the ticket URL built from the scheme a TLS-terminating proxy forwarded to. Each
// changes one thing of the answer; the rest is as before.
import { editSuccessReplies } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';

type Fields = Record<string, unknown>;
const isObject = (value: unknown): value is Fields => value !== null && typeof value === 'object' && !Array.isArray(value);

export const successAnswerFaults = heldOutFamily([
  {
    id: 'ho19-vault-defaults-object-shared',
    clause: 'vault.response.record',
    level: 'contract',
    bug: "The record merged into a module-level defaults object (Object.assign(DEFAULTS, record), the target mutated, not copied): a connection without environment read after one that has it answers the other's environment, account_name and refreshed_at; the first read of each is as before.",
    install: (app) => {
      const shared: Fields = {};
      editSuccessReplies(app, 'vault', (reply) =>
        isObject(reply.body) ? { ...reply, body: { ...Object.assign(shared, reply.body) } } : reply,
      );
    },
  },
  {
    id: 'ho19-ticket-text-json',
    clause: 'sso-ticket.response.content-type',
    level: 'contract',
    bug: 'The ticket answered through a serializer registered for text/json (an older ASP.NET default): Content-Type "text/json; charset=utf-8" instead of application/json; the body is as before.',
    install: (app) =>
      editSuccessReplies(app, 'sso-ticket', (reply) => ({
        ...reply,
        headers: { ...reply.headers, 'content-type': 'text/json; charset=utf-8' },
      })),
  },
  {
    id: 'ho19-vault-created-at-decimal-comma',
    clause: 'vault.response.shape',
    level: 'observed',
    bug: 'created_at formatted with the server\'s locale (de-DE), whose decimal sign is a comma: "2024-09-12T12:52:16,553Z" instead of "2024-09-12T12:52:16.553Z" (ISO 8601 allows the comma, RFC 3339 and the service do not); the other fields are as before.',
    install: (app) =>
      editSuccessReplies(app, 'vault', (reply) =>
        isObject(reply.body) && typeof reply.body.created_at === 'string'
          ? { ...reply, body: { ...reply.body, created_at: reply.body.created_at.replace(/(\d{2}:\d{2}:\d{2})\.(\d+)/, '$1,$2') } }
          : reply,
      ),
  },
  {
    id: 'ho19-ticket-url-scheme-from-proxy',
    clause: 'sso-ticket.response.shape',
    level: 'observed',
    bug: 'The ticket URL built from request.scheme behind a TLS-terminating proxy whose X-Forwarded-Proto is not trusted: "http://<tenant host>/self-service/connections-flow?ticket=..." instead of https; host, path and code are as before.',
    install: (app) =>
      editSuccessReplies(app, 'sso-ticket', (reply) =>
        isObject(reply.body) && typeof reply.body.ticket === 'string'
          ? { ...reply, body: { ...reply.body, ticket: reply.body.ticket.replace(/^https:/, 'http:') } }
          : reply,
      ),
  },
]);
