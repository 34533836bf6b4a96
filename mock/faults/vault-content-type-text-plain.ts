// A handler that writes the record with a generic text writer: the body is JSON, the content type
// says text/plain.
import { observed } from '../../specs/index.ts';
import type { Fault } from './fault.ts';
import { editReplies } from './support/route-edits.ts';

const SUCCESS = observed.operations.vault.success.status;

export const vaultContentTypeTextPlain: Fault = {
  id: 'vault-content-type-text-plain',
  clause: 'vault.response.content-type',
  description: 'The vault read answers its record with content type text/plain; charset=utf-8 instead of application/json (the body is still JSON).',
  install(app) {
    editReplies(app, ['vault'], (reply) => (reply.status === SUCCESS ? { ...reply, headers: { ...reply.headers, 'content-type': 'text/plain; charset=utf-8' } } : reply));
  },
};
