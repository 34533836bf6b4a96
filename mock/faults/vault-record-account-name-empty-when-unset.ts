// A column with a default of '': a connection without a custom account name comes back with
// account_name "", under its minimum length of 1.
import type { Fault } from './fault.ts';
import { editVaultRecords } from './support/vault-record-edits.ts';

export const vaultRecordAccountNameEmptyWhenUnset: Fault = {
  id: 'vault-record-account-name-empty-when-unset',
  clause: 'vault.record.account_name',
  description: 'A connection without an account name has account_name "" (under the minimum length of 1) instead of no field.',
  install(app) {
    editVaultRecords(app, (record) => ({ ...record, account_name: record.account_name ?? '' }));
  },
};
