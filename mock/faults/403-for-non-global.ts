// A server that files "the client is not global" under authorization and answers it 403, where the
// spec says 401.
import type { Fault } from './fault.ts';
import { editErrors } from './support/error-edits.ts';
import { withStatus } from './support/route-edits.ts';

const FORBIDDEN = 403;

export const forbiddenForNonGlobal: Fault = {
  id: '403-for-non-global',
  clause: 'redeliver.errors.401.not-global',
  description: 'Redelivery answers a token of a client that is not global with 403 instead of 401 (still a refusal, same message).',
  install(app) {
    editErrors(app, (kind, reply) => (kind === 'client_not_global' ? withStatus(reply, FORBIDDEN) : reply));
  },
};
