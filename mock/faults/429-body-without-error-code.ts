// A rate-limit answer with the right status and message but no errorCode.
import type { Fault } from './fault.ts';
import { editErrors } from './support/error-edits.ts';
import { withoutBodyField } from './support/route-edits.ts';

export const tooManyRequestsBodyWithoutErrorCode: Fault = {
  id: '429-body-without-error-code',
  clause: 'errors.429.body',
  description: 'A 429 says "Global limit has been reached" without errorCode too_many_requests.',
  install(app) {
    editErrors(app, (kind, reply) => (kind === 'too_many_requests' ? withoutBodyField(reply, 'errorCode') : reply));
  },
};
