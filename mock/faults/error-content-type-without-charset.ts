// Errors written by another handler than successes, one that sends plain application/json without
// the charset parameter the real service sends.
import type { Fault } from './fault.ts';
import { editReplies, isErrorBody, MANAGEMENT_ROUTES } from './support/route-edits.ts';

export const errorContentTypeWithoutCharset: Fault = {
  id: 'error-content-type-without-charset',
  clause: 'errors.body.content-type',
  description: 'Error responses have content type application/json without "; charset=utf-8".',
  install(app) {
    editReplies(app, MANAGEMENT_ROUTES, (reply) => (isErrorBody(reply.body) ? { ...reply, headers: { ...reply.headers, 'content-type': 'application/json' } } : reply));
  },
};
