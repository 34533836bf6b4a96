// A serializer that passes the database's timestamp text through: "2024-09-12 12:52:16.553", with
// no T and no time zone, which is not an RFC 3339 date-time.
import type { Fault } from './fault.ts';
import { editVaultRecords } from './support/vault-record-edits.ts';

export const vaultRecordUpdatedAtWithoutZone: Fault = {
  id: 'vault-record-updated-at-without-zone',
  clause: 'vault.record.updated_at',
  description: 'updated_at is an SQL timestamp without a time zone ("2024-09-12 12:52:16.553") instead of an ISO 8601 date-time.',
  install(app) {
    editVaultRecords(app, (record) => ({ ...record, updated_at: String(record.updated_at).replace('T', ' ').replace(/Z$/, '') }));
  },
};
