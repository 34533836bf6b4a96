// The record the vault read answers, field by field (spec 2.1, 9): each fault is a serializer
// between the store and the wire that writes one field wrong, and leaves the others as stored.
import { limit } from '../../specs/index.ts';
import type { FaultHooks } from '../app.ts';
import { faultFamily, type FaultRow } from './fault.ts';
import { editSuccessReplies } from './support/route-edits.ts';

type WireRecord = Record<string, unknown>;

/** A CHAR column wider than the maximum of vault.record.id. */
const ID_COLUMN_WIDTH = limit('vault.record.id').max! + 2;
/** A provider's versioned name ("SLACK_V2") where app_id is the provider alone. */
const VERSION_SUFFIX = '_V2';

/** Changes a copy of each record served with the success status. */
function serializeRecords(app: FaultHooks, edit: (record: WireRecord) => WireRecord): void {
  editSuccessReplies(app, 'vault', (reply) =>
    reply.body === null || typeof reply.body !== 'object' ? reply : { ...reply, body: edit({ ...(reply.body as WireRecord) }) },
  );
}

/** A serializer that writes `field` as `write` says (undefined: no field). */
function writesField(field: string, write: (value: unknown, record: WireRecord) => unknown): FaultRow['install'] {
  return (app) =>
    serializeRecords(app, (record) => {
      const written = write(record[field], record);
      if (written !== undefined) return { ...record, [field]: written };
      const { [field]: _dropped, ...others } = record;
      return others;
    });
}

export const vaultRecordFaults = faultFamily([
  {
    id: 'vault-record-id-padded',
    clause: 'vault.record.id',
    bug: "Ids kept in a CHAR column wider than the spec allows and not trimmed: the record's id comes back right-padded with spaces past the 30-character maximum (so it also differs from the id in the path).",
    install: writesField('id', (id) => String(id).padEnd(ID_COLUMN_WIDTH)),
  },
  {
    id: 'vault-record-app-id-over-maximum',
    clause: 'vault.record.app_id',
    bug: 'The provider\'s versioned name written for app_id ("SLACK_V2"): an app_id at the 55-character maximum comes back longer than allowed.',
    install: writesField('app_id', (appId) => `${String(appId)}${VERSION_SUFFIX}`),
  },
  {
    id: 'vault-record-without-name',
    clause: 'vault.record.name',
    bug: 'A serializer that renames a field on the way out: the record lacks the required name, sent as display_name instead.',
    install: (app) => serializeRecords(app, ({ name, ...record }) => ({ ...record, display_name: name })),
  },
  {
    id: 'vault-record-ready-as-string',
    clause: 'vault.record.ready',
    bug: 'A serializer that writes every column as text: ready is the string "true" or "false" instead of a boolean.',
    install: writesField('ready', String),
  },
  {
    id: 'vault-record-created-at-not-iso',
    clause: 'vault.record.created_at',
    bug: 'Dates formatted with the HTTP date format: created_at is "Thu, 12 Sep 2024 12:52:16 GMT" instead of an ISO 8601 date-time.',
    install: writesField('created_at', (createdAt) => new Date(String(createdAt)).toUTCString()),
  },
  {
    id: 'vault-record-updated-at-without-zone',
    clause: 'vault.record.updated_at',
    bug: 'The database\'s timestamp text passed through: updated_at is "2024-09-12 12:52:16.553", with no T and no time zone, instead of an ISO 8601 date-time.',
    install: writesField('updated_at', (updatedAt) => String(updatedAt).replace('T', ' ').replace(/Z$/, '')),
  },
  {
    id: 'vault-record-created-at-with-space',
    clause: 'vault.record.created_at',
    bug: 'A timestamp formatter configured with a space as the date-time separator, the zone kept: created_at is "2024-09-12 12:52:16.553Z", no RFC 3339 date-time (it writes "T" between date and time).',
    install: writesField('created_at', (createdAt) => String(createdAt).replace('T', ' ')),
  },
  {
    id: 'vault-record-created-at-offset-without-colon',
    clause: 'vault.record.created_at',
    bug: 'Dates formatted with moment\'s "YYYY-MM-DDTHH:mm:ss.SSSZZ" (or strftime\'s %z): created_at is "2024-09-12T12:52:16.553+0000", an ISO 8601 basic offset, where an RFC 3339 date-time writes "Z" or "+00:00".',
    install: writesField('created_at', (createdAt) => String(createdAt).replace(/Z$/, '+0000')),
  },
  {
    id: 'vault-record-updated-at-offset-hours-only',
    clause: 'vault.record.updated_at',
    bug: 'The database\'s timestamptz text with the "T" put in: updated_at is "2024-09-12T12:52:16.553+00" (PostgreSQL writes the offset\'s hours alone), where an RFC 3339 date-time writes "Z" or "+00:00".',
    install: writesField('updated_at', (updatedAt) => String(updatedAt).replace(/Z$/, '+00')),
  },
  {
    id: 'vault-record-refreshed-at-as-epoch-ms',
    clause: 'vault.record.refreshed_at',
    bug: 'The refresh time sent as the number a JavaScript Date holds: refreshed_at, when present, is milliseconds since 1970 instead of an ISO 8601 date-time.',
    install: writesField('refreshed_at', (refreshedAt) => (typeof refreshedAt === 'string' ? Date.parse(refreshedAt) : refreshedAt)),
  },
  {
    id: 'vault-record-fingerprint-empty-when-not-ready',
    clause: 'vault.record.fingerprint',
    bug: 'A fingerprint computed only once a connection is configured: a connection that is not ready has fingerprint "" (under the minimum length of 1).',
    install: writesField('fingerprint', (fingerprint, record) => (record.ready === false ? '' : fingerprint)),
  },
  {
    id: 'vault-record-environment-null-when-unset',
    clause: 'vault.record.environment',
    bug: 'A serializer that writes unset columns as null: a connection without an environment has environment: null instead of no environment field.',
    install: writesField('environment', (environment) => environment ?? null),
  },
  {
    id: 'vault-record-account-name-empty-when-unset',
    clause: 'vault.record.account_name',
    bug: 'A column with a default of \'\': a connection without an account name has account_name "" (under the minimum length of 1) instead of no field.',
    install: writesField('account_name', (accountName) => accountName ?? ''),
  },
  // The fields below stay valid against the schema: only the record's own values, as the target
  // file states them (fixtures.vault_connection_records), or what holds of any record tell.
  {
    id: 'vault-record-ready-from-fingerprint',
    clause: 'vault.response.record',
    bug: 'ready derived from the stored credentials (a fingerprint present counted as configured) instead of read: a connection that is not ready, but has a fingerprint, comes back with ready true; a ready one is right.',
    install: writesField('ready', (ready, record) => (typeof record.fingerprint === 'string' && record.fingerprint !== '' ? true : ready)),
  },
  {
    id: 'vault-record-updated-at-never-written',
    clause: 'vault.response.record',
    bug: 'The update time column set on insert only (auto_now_add where auto_now was meant): a connection updated after its creation comes back with updated_at its creation time; one never updated is right.',
    install: writesField('updated_at', (_updatedAt, record) => record.created_at),
  },
  {
    id: 'vault-record-account-name-defaults-to-name',
    clause: 'vault.response.shape',
    bug: 'A display default in the serializer (account_name ?? name): a connection without an account name comes back with account_name its name, a valid string, instead of without the field.',
    install: writesField('account_name', (accountName, record) => accountName ?? record.name),
  },
  {
    id: 'vault-record-created-at-from-refresh',
    clause: 'vault.record.timestamps-order',
    bug: "created_at read from the credentials' row, which a token refresh writes anew: a refreshed connection comes back created at its last refresh, after its last update; one never refreshed is right.",
    install: writesField('created_at', (createdAt, record) => record.refreshed_at ?? createdAt),
  },
  {
    id: 'vault-record-with-extra-field',
    clause: 'vault.response.shape',
    bug: 'A serializer that dumps the whole row: the record carries an internal field (tenant_shard) besides the fields of section 2.1; every contract field is still valid.',
    install: (app) => serializeRecords(app, (record) => ({ ...record, tenant_shard: 'eu-1' })),
  },
]);
