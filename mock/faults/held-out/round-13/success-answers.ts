// Success answers: the vault record's environment filled from the service's own configuration,
// app_id written as the provider's display name, and refreshed_at as an HTTP date; and the
// observed rules: created_at and updated_at swapped by a positional row mapping, and timestamps
// formatted the way Go's RFC3339Nano layout does (trailing zeros of the fraction dropped). Each
// changes one value; everything else is answered as before.
import { editSuccessReplies } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';

type Fields = Record<string, unknown>;

/** The record answered with `edit` applied to its fields. */
function editRecord(edit: (record: Fields) => Fields) {
  return <R extends { body?: unknown }>(reply: R): R =>
    reply.body !== null && typeof reply.body === 'object' ? { ...reply, body: edit(reply.body as Fields) } : reply;
}

/** The deployment environment of the service itself, as its configuration names it. */
const DEPLOYMENT_ENVIRONMENT = 'production';
/** The integrations catalogue's display names of the providers. */
const DISPLAY_NAMES: Record<string, string> = { SLACK: 'Slack', HTTP: 'HTTP', STRIPE: 'Stripe', JWT: 'JWT', ZAPIER: 'Zapier' };
const TIMESTAMPS = ['created_at', 'updated_at', 'refreshed_at'];

/** An ISO time as Go's time.RFC3339Nano writes it: the fraction without trailing zeros, and no dot for none. */
function rfc3339Nano(value: string): string {
  return value.replace(/\.(\d*?)0+Z$/, (_whole, digits: string) => (digits.length > 0 ? `.${digits}Z` : 'Z'));
}

export const successAnswerFaults = heldOutFamily([
  {
    id: 'ho13-vault-environment-from-config',
    clause: 'vault.response.record',
    level: 'contract',
    bug: `The response mapper's environment field reading config.environment, the service's own deployment environment ("${DEPLOYMENT_ENVIRONMENT}"), where it should read the record's: every connection is answered with environment "${DEPLOYMENT_ENVIRONMENT}", one with another environment or none included; the other fields are the record's.`,
    install: (app) =>
      editSuccessReplies(
        app,
        'vault',
        editRecord((record) => ({ ...record, environment: DEPLOYMENT_ENVIRONMENT })),
      ),
  },
  {
    id: 'ho13-vault-app-id-display-name',
    clause: 'vault.response.record',
    level: 'contract',
    bug: 'app_id passed through the integrations catalogue\'s display-name lookup (the one the dashboard shows), with the id kept where the catalogue has no entry: a Slack connection is answered with app_id "Slack" instead of "SLACK"; providers missing from the catalogue keep their id.',
    install: (app) =>
      editSuccessReplies(
        app,
        'vault',
        editRecord((record) =>
          typeof record.app_id === 'string' && Object.hasOwn(DISPLAY_NAMES, record.app_id)
            ? { ...record, app_id: DISPLAY_NAMES[record.app_id] }
            : record,
        ),
      ),
  },
  {
    id: 'ho13-vault-refreshed-at-http-date',
    clause: 'vault.record.refreshed_at',
    level: 'contract',
    bug: 'refreshed_at written by the helper that makes the Last-Modified header, Date.prototype.toUTCString: it is answered as "Tue, 01 Oct 2024 08:30:00 GMT" instead of an ISO 8601 date-time; created_at and updated_at are as before.',
    install: (app) =>
      editSuccessReplies(
        app,
        'vault',
        editRecord((record) =>
          typeof record.refreshed_at === 'string' ? { ...record, refreshed_at: new Date(record.refreshed_at).toUTCString() } : record,
        ),
      ),
  },
  {
    id: 'ho13-vault-timestamps-swapped',
    clause: 'vault.record.timestamps-order',
    level: 'observed',
    bug: 'The record read from a raw query whose row is mapped by position, and the SELECT lists updated_at before created_at: created_at and updated_at are answered swapped, so a connection updated after its creation is answered as updated before it was created; connections never updated are answered as before.',
    install: (app) =>
      editSuccessReplies(
        app,
        'vault',
        editRecord((record) => ({ ...record, created_at: record.updated_at, updated_at: record.created_at })),
      ),
  },
  {
    id: 'ho13-vault-timestamps-rfc3339nano',
    clause: 'vault.response.shape',
    level: 'observed',
    bug: 'Timestamps written by a service in Go with time.RFC3339Nano, which drops the trailing zeros of the fraction: "2024-10-01T08:30:00.000Z" is answered "2024-10-01T08:30:00Z" and "2024-08-02T09:15:42.120Z" "2024-08-02T09:15:42.12Z" instead of three digits of milliseconds; a time whose milliseconds end in a non-zero digit is as before.',
    install: (app) =>
      editSuccessReplies(
        app,
        'vault',
        editRecord((record) =>
          Object.fromEntries(
            Object.entries(record).map(([name, value]) => [
              name,
              TIMESTAMPS.includes(name) && typeof value === 'string' ? rfc3339Nano(value) : value,
            ]),
          ),
        ),
      ),
  },
]);
