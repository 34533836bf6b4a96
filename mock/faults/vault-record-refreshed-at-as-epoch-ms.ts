// A serializer that sends the refresh time as the number a JavaScript Date holds (milliseconds
// since 1970) instead of an ISO 8601 string.
import type { Fault } from './fault.ts';
import { editVaultRecords } from './support/vault-record-edits.ts';

export const vaultRecordRefreshedAtAsEpochMs: Fault = {
  id: 'vault-record-refreshed-at-as-epoch-ms',
  clause: 'vault.record.refreshed_at',
  description: 'refreshed_at, when present, is a number of milliseconds since 1970 instead of an ISO 8601 date-time.',
  install(app) {
    editVaultRecords(app, (record) => (record.refreshed_at === undefined ? record : { ...record, refreshed_at: Date.parse(String(record.refreshed_at)) }));
  },
};
