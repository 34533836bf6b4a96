// A serializer that renames a field on the way out: the required name is sent as display_name.
import type { Fault } from './fault.ts';
import { editVaultRecords } from './support/vault-record-edits.ts';

export const vaultRecordWithoutName: Fault = {
  id: 'vault-record-without-name',
  clause: 'vault.record.name',
  description: 'The record lacks the required name: it is sent as display_name instead.',
  install(app) {
    editVaultRecords(app, ({ name, ...record }) => ({ ...record, display_name: name }));
  },
};
