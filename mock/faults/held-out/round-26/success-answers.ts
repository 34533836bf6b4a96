// The answers' bodies and headers: ready read from a MySQL TINYINT by Perl's DBI, updated_at written
// from a naive Python datetime, the record typed as JSON:API by ja_serializer's plug; ticket URLs
// built behind a TLS-terminating balancer with Phoenix's url config; and the observed rule: an
// "object" member written by a serializer in Stripe's manner. Each changes one part of the answer;
// the rest is as before.
import { editSuccessReplies, withContentType } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';

type Fields = Record<string, unknown>;
const isObject = (value: unknown): value is Fields => value !== null && typeof value === 'object' && !Array.isArray(value);

/** A naive datetime's isoformat(): no zone, six digits of fraction. */
function naiveIso(iso: string): string | undefined {
  const parsed = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d+))?Z$/.exec(iso);
  if (!parsed) return undefined;
  return `${parsed[1]}.${(parsed[2] ?? '').padEnd(6, '0').slice(0, 6)}`;
}

export const successAnswerFaults = heldOutFamily([
  {
    id: 'ho26-ready-perl-dbi-tinyint',
    clause: 'vault.record.ready',
    level: 'contract',
    bug: 'A Perl (Dancer2) service reading the record with DBI from MySQL, where ready is a TINYINT(1) that comes back as 1 or 0, and encoding it with JSON::MaybeXS, which writes those as numbers: ready is answered 1 (or 0) instead of true (or false); the other fields are as before.',
    install: (app) =>
      editSuccessReplies(app, 'vault', (reply) =>
        isObject(reply.body) && typeof reply.body.ready === 'boolean'
          ? { ...reply, body: { ...reply.body, ready: reply.body.ready ? 1 : 0 } }
          : reply,
      ),
  },
  {
    id: 'ho26-updated-at-python-naive-isoformat',
    clause: 'vault.record.updated_at',
    level: 'contract',
    bug: 'A FastAPI service whose ORM model declares updated_at as DateTime without timezone=True (the column written by an ON UPDATE trigger), so SQLAlchemy hands back a naive datetime and pydantic writes its isoformat(): updated_at is "2024-09-12T12:52:16.553000" (no offset, not an RFC 3339 date-time) instead of "2024-09-12T12:52:16.553Z"; created_at and refreshed_at are as before.',
    install: (app) =>
      editSuccessReplies(app, 'vault', (reply) => {
        if (!isObject(reply.body) || typeof reply.body.updated_at !== 'string') return reply;
        const written = naiveIso(reply.body.updated_at);
        return written === undefined ? reply : { ...reply, body: { ...reply.body, updated_at: written } };
      }),
  },
  {
    id: 'ho26-vault-jsonapi-content-type',
    clause: 'vault.response.content-type',
    level: 'contract',
    bug: "A Phoenix service whose router pipeline for the flows API runs JaSerializer's ContentTypeNegotiation plug (the flows dashboard speaks JSON:API), which sets the answer's type: the connection is answered with Content-Type application/vnd.api+json instead of application/json; the body is as before.",
    install: (app) => editSuccessReplies(app, 'vault', (reply) => withContentType(reply, 'application/vnd.api+json')),
  },
  {
    id: 'ho26-ticket-url-scheme-behind-balancer',
    clause: 'sso-ticket.response.ticket',
    level: 'contract',
    bug: 'A Phoenix endpoint behind a load balancer that ends TLS, whose config sets url: [host: ...] with no scheme: and port: 80, so the ticket built with Routes.url/1 begins "http://": the ticket is "http://<host>/self-service/connections-flow?ticket=..." instead of an https URL; the host, path and code are as before.',
    install: (app) =>
      editSuccessReplies(app, 'sso-ticket', (reply) =>
        isObject(reply.body) && typeof reply.body.ticket === 'string'
          ? { ...reply, body: { ...reply.body, ticket: reply.body.ticket.replace(/^https:\/\//, 'http://') } }
          : reply,
      ),
  },
  {
    id: 'ho26-vault-object-member-stripe-style',
    clause: 'vault.response.shape',
    level: 'observed',
    bug: 'A serializer base class written in the manner of Stripe\'s API, every resource carrying an "object" member that names its type: the connection is answered with "object": "vault_connection" beside its fields instead of the fields alone; the fields are as before.',
    install: (app) =>
      editSuccessReplies(app, 'vault', (reply) =>
        isObject(reply.body) ? { ...reply, body: { object: 'vault_connection', ...reply.body } } : reply,
      ),
  },
]);
