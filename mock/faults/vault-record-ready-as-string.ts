// A serializer that writes every column as text: ready comes back as "true" or "false".
import type { Fault } from './fault.ts';
import { editVaultRecords } from './support/vault-record-edits.ts';

export const vaultRecordReadyAsString: Fault = {
  id: 'vault-record-ready-as-string',
  clause: 'vault.record.ready',
  description: 'ready is the string "true" or "false" instead of a boolean.',
  install(app) {
    editVaultRecords(app, (record) => ({ ...record, ready: String(record.ready) }));
  },
};
