// Success answers: the vault record's app_id serialised as the value of a numeric enum, and its id
// qualified as a URN by a serializer written for the event bus, the record answered as NDJSON by
// the listing's streaming serializer, and created_at written with its bracketed zone id; and the observed rules: a ticket
// code made of Math.random() in base 36, thought to give sixteen characters a call, and ticket
// creation answered 202 once it moved onto a job queue. Each changes one value or one status;
// everything else is answered as before.
import { editSuccessReplies } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';

type Fields = Record<string, unknown>;

/** The providers as the generated TypeScript enum lists them (enum AppId { HTTP, SLACK, ... }). */
const APP_ID_ENUM = ['HTTP', 'SLACK', 'STRIPE_CONNECTED_ACCOUNT_WITH_A_VERY_LONG_PROVIDER_NAME'];
const CODE_LENGTH = 32;
const NDJSON = 'application/x-ndjson';
/** The URN namespace of the event bus's serializer. */
const URN_PREFIX = 'urn:flows:vault-connection:';

/** The record answered with `edit` applied to its fields. */
function editRecord(edit: (record: Fields) => Fields) {
  return <R extends { body?: unknown }>(reply: R): R =>
    reply.body !== null && typeof reply.body === 'object' ? { ...reply, body: edit(reply.body as Fields) } : reply;
}

/** A code of two Math.random() draws in base 36 cut to 32 characters: each draw gives about eleven. */
function base36Code(): string {
  const draw = () => Math.random().toString(36).slice(2);
  return `${draw()}${draw()}`.slice(0, CODE_LENGTH);
}

export const successAnswerFaults = heldOutFamily([
  {
    id: 'ho11-vault-app-id-numeric-enum',
    clause: 'vault.record.app_id',
    level: 'contract',
    bug: 'app_id held in the record as a member of a numeric TypeScript enum (enum AppId { HTTP, SLACK, ... }) and serialised as it is held, its value: "SLACK" is answered 1 and "HTTP" 0, numbers where a string of 1 to 55 characters is due; the other fields are answered as before.',
    install: (app) =>
      editSuccessReplies(
        app,
        'vault',
        editRecord((record) =>
          typeof record.app_id === 'string' && APP_ID_ENUM.includes(record.app_id)
            ? { ...record, app_id: APP_ID_ENUM.indexOf(record.app_id) }
            : record,
        ),
      ),
  },
  {
    id: 'ho11-vault-id-urn-qualified',
    clause: 'vault.record.id',
    level: 'contract',
    bug: `The record passed through the serializer written for the event bus, which qualifies ids as URNs so that they are unique across services: the id is answered "${URN_PREFIX}ac_..." (${URN_PREFIX.length + 25} characters) instead of the id of at most 30; the other fields are answered as before.`,
    install: (app) =>
      editSuccessReplies(
        app,
        'vault',
        editRecord((record) => (typeof record.id === 'string' ? { ...record, id: `${URN_PREFIX}${record.id}` } : record)),
      ),
  },
  {
    id: 'ho11-ticket-code-base36-draws',
    clause: 'sso-ticket.response.shape',
    level: 'observed',
    bug: `The ticket code made as (Math.random().toString(36).slice(2) + Math.random().toString(36).slice(2)).slice(0, ${CODE_LENGTH}), written in the belief that a draw gives sixteen characters: a draw gives about eleven, so the code has some twenty-two lower-case characters instead of ${CODE_LENGTH}; host and path are as before.`,
    install: (app) =>
      editSuccessReplies(app, 'sso-ticket', (reply) => {
        const body = reply.body as Fields | undefined;
        if (typeof body?.ticket !== 'string') return reply;
        const url = new URL(body.ticket);
        const [name] = [...url.searchParams.keys()];
        if (name === undefined) return reply;
        url.searchParams.set(name, base36Code());
        return { ...reply, body: { ...body, ticket: url.toString() } };
      }),
  },
  {
    id: 'ho11-ticket-answered-202-from-queue',
    clause: 'sso-ticket.success.status',
    level: 'observed',
    bug: 'Ticket creation moved onto a job queue, the route waiting for the job and answering as queue handlers do, 202 Accepted, with the ticket in the body: a created ticket is answered 202 instead of 201; the body is as before.',
    install: (app) => editSuccessReplies(app, 'sso-ticket', (reply) => ({ ...reply, status: 202 })),
  },
  {
    id: 'ho11-vault-content-type-ndjson',
    clause: 'vault.response.content-type',
    level: 'contract',
    bug: 'The record written by the streaming serializer the listing uses (one JSON value a line), which sets its own content type: the vault read is answered Content-Type "application/x-ndjson" instead of application/json; the body, a single JSON object, is as before.',
    install: (app) => editSuccessReplies(app, 'vault', (reply) => ({ ...reply, headers: { ...reply.headers, 'content-type': NDJSON } })),
  },
  {
    id: 'ho11-vault-created-at-zone-id',
    clause: 'vault.record.created_at',
    level: 'contract',
    bug: 'created_at held as a zoned date-time and written with its toString(), which appends the zone id in brackets (as java.time\'s ZonedDateTime and Temporal do): "2024-09-12T12:52:16.553Z[UTC]" instead of an ISO 8601 date-time; updated_at and refreshed_at are as before.',
    install: (app) =>
      editSuccessReplies(
        app,
        'vault',
        editRecord((record) => (typeof record.created_at === 'string' ? { ...record, created_at: `${record.created_at}[UTC]` } : record)),
      ),
  },
]);
