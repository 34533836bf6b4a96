// A store that keeps connection ids in a fixed-width CHAR column wider than the spec allows, and a
// serializer that does not trim them: every id comes back right-padded with spaces. The id in the
// record then differs from the one asked for, so the record no longer matches the path either.
import { limit } from '../../specs/index.ts';
import type { Fault } from './fault.ts';
import { editVaultRecords } from './support/vault-record-edits.ts';

/** The column's width: wider than the maximum of vault.record.id. */
const COLUMN_WIDTH = limit('vault.record.id').max! + 2;

export const vaultRecordIdPadded: Fault = {
  id: 'vault-record-id-padded',
  clause: 'vault.record.id',
  description: 'The record\'s id comes back right-padded with spaces past the 30-character maximum (a CHAR column); it then also differs from the id in the path.',
  install(app) {
    editVaultRecords(app, (record) => ({ ...record, id: String(record.id).padEnd(COLUMN_WIDTH) }));
  },
};
