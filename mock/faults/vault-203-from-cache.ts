// A caching proxy in front of the vault read that marks the answers it serves with 203
// Non-Authoritative Information, where the real service answers 200. Still a success.
import { observed } from '../../specs/index.ts';
import type { Fault } from './fault.ts';
import { editReplies } from './support/route-edits.ts';

const SUCCESS = observed.operations.vault.success.status;
const NON_AUTHORITATIVE = 203;

export const vault203FromCache: Fault = {
  id: 'vault-203-from-cache',
  clause: 'vault.success.status',
  description: 'The vault read answers 203 instead of 200 (still a success, same record).',
  install(app) {
    editReplies(app, ['vault'], (reply) => (reply.status === SUCCESS ? { ...reply, status: NON_AUTHORITATIVE } : reply));
  },
};
