// Success answers: a Mongo collection whose migrated documents carry the schema-versioning field
// the migration stamped; a redelivery whose EventBridge destinations go through a synchronous path;
// and the observed rule: a ticket-code prefix from the configuration's defaults. Other answers are
// as before.
import { capture } from '../../support/captured.ts';
import { editSuccessReplies } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);
/** The migration's run: documents created before it were migrated and stamped. */
const MIGRATED_BEFORE = '2024-01-01T00:00:00.000Z';
const SCHEMA_VERSION_FIELD = 'schemaVersion';
/** The prefix config/default.json gives ticket codes (meant for the staging environment). */
const STAGING_PREFIX = 'stg_';

export const successAnswerFaults = heldOutFamily([
  {
    id: 'ho38-vault-migrated-documents-schema-version',
    clause: 'vault.response.shape',
    level: 'observed',
    bug: `A Node service on MongoDB that reads a vault connection with collection.findOne(..., { projection: { _id: 0 } }) and answers the document as it is, and the migration that moved the connections created before ${MIGRATED_BEFORE.slice(0, 10)} to the new shape stamped them "${SCHEMA_VERSION_FIELD}": 2 (the schema-versioning pattern), which documents created since lack: the record of a connection created before then carries ${SCHEMA_VERSION_FIELD} beside the fields of section 2.1; a connection created later is answered as before.`,
    install: (app) =>
      editSuccessReplies(app, 'vault', (reply) =>
        isObject(reply.body) && typeof reply.body.created_at === 'string' && reply.body.created_at < MIGRATED_BEFORE
          ? { ...reply, body: { ...reply.body, [SCHEMA_VERSION_FIELD]: 2 } }
          : reply,
      ),
  },
  {
    id: 'ho38-redeliver-eventbridge-synchronous-200',
    clause: 'redeliver.success.202',
    level: 'contract',
    bug: 'A Java (Spring) service that dispatches redelivery on the destination type of the stream, whose EventBridge branch, kept from before the delivery queue existed, calls PutEvents synchronously and answers ResponseEntity.ok(Map.of()): redelivery of a failed event of a stream delivering to EventBridge is answered 200 instead of 202; a stream delivering to a webhook is answered 202 as before.',
    install: (app) => {
      const store = capture(app, 'store');
      editSuccessReplies(app, 'redeliver', (reply, exchange) => {
        const stream = exchange.params.id === undefined ? undefined : store().stream(exchange.params.id);
        return stream && /eventbridge/i.test(stream.name ?? '') ? { ...reply, status: 200 } : reply;
      });
    },
  },
  {
    id: 'ho38-ticket-code-default-config-prefix',
    clause: 'sso-ticket.response.shape',
    level: 'observed',
    bug: `A Node service using the config package whose config/default.json sets tickets.codePrefix to "${STAGING_PREFIX}" (so that staging tickets could be told apart in logs) and whose config/production.json never overrides it: every ticket URL ends ?ticket=${STAGING_PREFIX}<32 alphanumerics> instead of ?ticket=<32 alphanumerics>; the host, path and status are as before.`,
    install: (app) =>
      editSuccessReplies(app, 'sso-ticket', (reply) => {
        if (!isObject(reply.body) || typeof reply.body.ticket !== 'string') return reply;
        const url = new URL(reply.body.ticket);
        const code = url.searchParams.get('ticket');
        if (code === null) return reply;
        return {
          ...reply,
          body: { ...reply.body, ticket: reply.body.ticket.replace(`ticket=${code}`, `ticket=${STAGING_PREFIX}${code}`) },
        };
      }),
  },
]);
