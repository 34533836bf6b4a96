// Faults in the record the vault read answers: `edit` gets a copy of each record served with the
// success status, as a serializer between the store and the wire would.
import { observed } from '../../../specs/index.ts';
import type { FaultHooks } from '../../app.ts';
import type { Exchange } from '../../exchange.ts';
import { editReplies } from './route-edits.ts';

export type WireRecord = Record<string, unknown>;

const SUCCESS = observed.operations.vault.success.status;

export function editVaultRecords(app: FaultHooks, edit: (record: WireRecord, exchange: Exchange) => WireRecord): void {
  editReplies(app, ['vault'], (reply, exchange) => {
    if (reply.status !== SUCCESS || reply.body === null || typeof reply.body !== 'object') return reply;
    return { ...reply, body: edit({ ...(reply.body as WireRecord) }, exchange) };
  });
}
