// A framework default: an invalid request body is answered 422 Unprocessable Entity, where the real
// service answers 400 invalid_body. Still a refusal.
import type { Fault } from './fault.ts';
import { editErrors } from './support/error-edits.ts';
import { withStatus } from './support/route-edits.ts';

const UNPROCESSABLE = 422;

export const bodyErrorsAs422: Fault = {
  id: 'body-errors-as-422',
  clause: 'errors.400.body',
  description: 'An invalid ticket body is answered 422 instead of 400 invalid_body (still a refusal).',
  install(app) {
    editErrors(app, (kind, reply) => (kind === 'invalid_body' ? withStatus(reply, UNPROCESSABLE) : reply));
  },
};
