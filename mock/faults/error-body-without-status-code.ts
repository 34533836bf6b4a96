// An error serializer that leaves out statusCode (the status is in the HTTP status line anyway).
import type { Fault } from './fault.ts';
import { editReplies, isErrorBody, MANAGEMENT_ROUTES, withoutBodyField } from './support/route-edits.ts';

export const errorBodyWithoutStatusCode: Fault = {
  id: 'error-body-without-status-code',
  clause: 'errors.body.shape',
  description: 'Error bodies of the management interface have no statusCode field.',
  install(app) {
    editReplies(app, MANAGEMENT_ROUTES, (reply) => (isErrorBody(reply.body) ? withoutBodyField(reply, 'statusCode') : reply));
  },
};
