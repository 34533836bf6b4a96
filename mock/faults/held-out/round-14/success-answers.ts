// Success answers: the vault record's ready flag read back from a string-valued cache, updated_at
// stamped by the ORM on every read, and name title-cased by a label helper; and the observed rules:
// the ticket URL joined to a base URL ending in a slash, and the redelivery's body the queue's
// null. Each changes one value; everything else is answered as before.
import { editSuccessReplies } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { capture } from '../../support/captured.ts';

type Fields = Record<string, unknown>;

/** The record answered with `edit` applied to its fields. */
function editRecord(edit: (record: Fields) => Fields) {
  return <R extends { body?: unknown }>(reply: R): R =>
    reply.body !== null && typeof reply.body === 'object' ? { ...reply, body: edit(reply.body as Fields) } : reply;
}

const FLOW_PATH = '/self-service/connections-flow';

export const successAnswerFaults = heldOutFamily([
  {
    id: 'ho14-vault-ready-from-string-cache',
    clause: 'vault.record.ready',
    level: 'contract',
    bug: 'The record served from a Redis hash (HGETALL gives every field back as a string) and only the known numeric fields converted back: ready is answered "true" or "false", a string, instead of a boolean; the other fields are as before.',
    install: (app) =>
      editSuccessReplies(
        app,
        'vault',
        editRecord((record) => (typeof record.ready === 'boolean' ? { ...record, ready: String(record.ready) } : record)),
      ),
  },
  {
    id: 'ho14-vault-updated-at-touched-on-read',
    clause: 'vault.record.updated_at',
    level: 'contract',
    bug: "The read path saves the entity to record when it was last read, and the ORM's @UpdateDateColumn stamps updated_at on that save: every read answers updated_at as the time of the read, changing from one read to the next, instead of the time the connection was last updated; created_at is as before.",
    install: (app) => {
      const clock = capture(app, 'clock');
      editSuccessReplies(
        app,
        'vault',
        editRecord((record) => ('updated_at' in record ? { ...record, updated_at: new Date(clock().now()).toISOString() } : record)),
      );
    },
  },
  {
    id: 'ho14-ticket-url-double-slash',
    clause: 'sso-ticket.response.shape',
    level: 'observed',
    bug: `The ticket URL built as \`\${baseUrl}/\${path}\` where the configured base URL already ends in "/" (and the path starts with one): every ticket is "https://<host>//self-service/connections-flow?ticket=..." (a doubled slash) instead of "https://<host>${FLOW_PATH}?ticket=..."; the host and the code are as before.`,
    install: (app) =>
      editSuccessReplies(
        app,
        'sso-ticket',
        editRecord((body) =>
          typeof body.ticket === 'string' && body.ticket.includes(`/${FLOW_PATH.slice(1)}`)
            ? { ...body, ticket: body.ticket.replace(FLOW_PATH, `/${FLOW_PATH}`) }
            : body,
        ),
      ),
  },
  {
    id: 'ho14-vault-name-title-cased',
    clause: 'vault.record.name',
    level: 'contract',
    bug: 'name passed through the dashboard\'s label helper, which capitalises the first letter of each word: "Team notifications" is answered "Team Notifications" (and every name with a lower-case word changed likewise) instead of the name as stored; a name whose words all start with a capital is as before.',
    install: (app) =>
      editSuccessReplies(
        app,
        'vault',
        editRecord((record) =>
          typeof record.name === 'string'
            ? {
                ...record,
                name: record.name.replace(/(^|\s)([a-z])/g, (_w, space: string, letter: string) => `${space}${letter.toUpperCase()}`),
              }
            : record,
        ),
      ),
  },
  {
    id: 'ho14-redeliver-body-null',
    clause: 'redeliver.response.body',
    level: 'observed',
    bug: "The 202 written as res.status(202).json(await queue.add(job)), and the queue client's add() resolves to null: every redelivery is answered with the body null instead of {}; the status and the content type are as before.",
    install: (app) => editSuccessReplies(app, 'redeliver', (reply) => ({ ...reply, body: null })),
  },
]);
