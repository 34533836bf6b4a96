// One message for every token failure: an invalid signature or an expired token is answered
// "Invalid token", where the real service names the cause.
import type { Fault } from './fault.ts';
import { editErrors } from './support/error-edits.ts';

export const unauthorizedMessagesAllInvalidToken: Fault = {
  id: '401-messages-all-invalid-token',
  clause: 'errors.401.message',
  description: 'A token with an invalid signature or an expired token is answered 401 "Invalid token" instead of a message naming the cause.',
  install(app) {
    editErrors(app, (kind, reply, errors) => (kind === 'invalid_signature' || kind === 'expired_token' ? errors.reply('invalid_token') : reply));
  },
};
