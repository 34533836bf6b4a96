// A serializer that writes the provider's versioned name ("SLACK_V2") where app_id is the provider
// alone: the longest provider names go past the 55-character maximum.
import type { Fault } from './fault.ts';
import { editVaultRecords } from './support/vault-record-edits.ts';

const VERSION_SUFFIX = '_V2';

export const vaultRecordAppIdOverMaximum: Fault = {
  id: 'vault-record-app-id-over-maximum',
  clause: 'vault.record.app_id',
  description: 'app_id carries a version suffix ("SLACK_V2"), so an app_id at the 55-character maximum comes back longer than allowed.',
  install(app) {
    editVaultRecords(app, (record) => ({ ...record, app_id: `${String(record.app_id)}${VERSION_SUFFIX}` }));
  },
};
