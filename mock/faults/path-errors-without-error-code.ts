// A malformed path id answered with the right status and message but no errorCode.
import type { Fault } from './fault.ts';
import { editErrors } from './support/error-edits.ts';
import { withoutBodyField } from './support/route-edits.ts';

export const pathErrorsWithoutErrorCode: Fault = {
  id: 'path-errors-without-error-code',
  clause: 'errors.400.path',
  description: 'A malformed path id is answered 400 "Path validation error: ..." without errorCode invalid_uri.',
  install(app) {
    editErrors(app, (kind, reply) => (kind === 'invalid_uri' ? withoutBodyField(reply, 'errorCode') : reply));
  },
};
