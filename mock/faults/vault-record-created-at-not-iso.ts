// A serializer that formats dates with the HTTP date format ("Thu, 12 Sep 2024 12:52:16 GMT")
// instead of ISO 8601.
import type { Fault } from './fault.ts';
import { editVaultRecords } from './support/vault-record-edits.ts';

export const vaultRecordCreatedAtNotIso: Fault = {
  id: 'vault-record-created-at-not-iso',
  clause: 'vault.record.created_at',
  description: 'created_at is an HTTP date ("Thu, 12 Sep 2024 12:52:16 GMT") instead of an ISO 8601 date-time.',
  install(app) {
    editVaultRecords(app, (record) => ({ ...record, created_at: new Date(String(record.created_at)).toUTCString() }));
  },
};
