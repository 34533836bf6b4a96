// A response cache in front of the vault read keyed by the id's type prefix ("ac_") instead of the
// whole id: once one connection has been read, every read of an existing connection answers that
// first record. Unknown ids still miss the store and get their 404.
import { observed } from '../../specs/index.ts';
import type { Fault } from './fault.ts';
import { editReplies } from './support/route-edits.ts';

const SUCCESS = observed.operations.vault.success.status;
const PREFIX_LENGTH = observed.identifiers.flows_vault_connection.prefix.length;

export const vaultAnswersFirstRecordRead: Fault = {
  id: 'vault-answers-first-record-read',
  clause: 'vault.response.record',
  description: 'The vault read caches records under the id prefix, so after the first read every existing connection is answered with the first record read.',
  install(app) {
    const cache = new Map<string, unknown>();
    editReplies(app, ['vault'], (reply, exchange) => {
      if (reply.status !== SUCCESS) return reply;
      const key = (exchange.params.id ?? '').slice(0, PREFIX_LENGTH);
      if (!cache.has(key)) cache.set(key, reply.body);
      return { ...reply, body: cache.get(key) };
    });
  },
};
