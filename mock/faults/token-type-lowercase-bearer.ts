// A token response with token_type "bearer" in lower case (RFC 6749 lets clients compare it
// case-insensitively; the real service writes "Bearer").
import type { Fault } from './fault.ts';
import { editReplies } from './support/route-edits.ts';

const OK = 200;

export const tokenTypeLowercaseBearer: Fault = {
  id: 'token-type-lowercase-bearer',
  clause: 'token.observed.response',
  description: 'The token response has token_type "bearer" instead of "Bearer".',
  install(app) {
    editReplies(app, ['token'], (reply) => (reply.status === OK ? { ...reply, body: { ...(reply.body as object), token_type: 'bearer' } } : reply));
  },
};
