// A server that computes the fingerprint only once a connection is configured and sends an empty
// string until then, where the spec wants at least one character.
import type { Fault } from './fault.ts';
import { editVaultRecords } from './support/vault-record-edits.ts';

export const vaultRecordFingerprintEmptyWhenNotReady: Fault = {
  id: 'vault-record-fingerprint-empty-when-not-ready',
  clause: 'vault.record.fingerprint',
  description: 'A connection that is not ready has fingerprint "" (under the minimum length of 1).',
  install(app) {
    editVaultRecords(app, (record) => (record.ready === false ? { ...record, fingerprint: '' } : record));
  },
};
