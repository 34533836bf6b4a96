// An error serializer that writes a generic "Error" where the real service writes the status's
// reason phrase ("Unauthorized", "Not Found", ...).
import type { Fault } from './fault.ts';
import { editReplies, isErrorBody, MANAGEMENT_ROUTES } from './support/route-edits.ts';

export const errorBodyWrongReasonPhrase: Fault = {
  id: 'error-body-wrong-reason-phrase',
  clause: 'errors.body.shape',
  description: 'Error bodies have error "Error" instead of the status\'s reason phrase.',
  install(app) {
    editReplies(app, MANAGEMENT_ROUTES, (reply) => (isErrorBody(reply.body) ? { ...reply, body: { ...reply.body, error: 'Error' } } : reply));
  },
};
