// A serializer that writes every column, unset ones as null: environment, a string when present,
// comes back null for a connection that has none.
import type { Fault } from './fault.ts';
import { editVaultRecords } from './support/vault-record-edits.ts';

export const vaultRecordEnvironmentNullWhenUnset: Fault = {
  id: 'vault-record-environment-null-when-unset',
  clause: 'vault.record.environment',
  description: 'A connection without an environment has environment: null instead of no environment field.',
  install(app) {
    editVaultRecords(app, (record) => ({ ...record, environment: record.environment ?? null }));
  },
};
