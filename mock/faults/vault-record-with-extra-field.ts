// A serializer that dumps the whole row: the record carries an internal column beyond section 2.1.
import type { Fault } from './fault.ts';
import { editVaultRecords } from './support/vault-record-edits.ts';

export const vaultRecordWithExtraField: Fault = {
  id: 'vault-record-with-extra-field',
  clause: 'vault.response.shape',
  description: 'The record carries an internal field (tenant_shard) besides the fields of section 2.1; every contract field is still valid.',
  install(app) {
    editVaultRecords(app, (record) => ({ ...record, tenant_shard: 'eu-1' }));
  },
};
