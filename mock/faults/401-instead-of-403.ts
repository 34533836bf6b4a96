// A server that answers every authorization failure of redelivery with 401 Unauthorized, a missing
// scope included, where the spec says 403.
import type { Fault } from './fault.ts';
import { editReplies, withStatus } from './support/route-edits.ts';

const FORBIDDEN = 403;
const UNAUTHORIZED = 401;

export const unauthorizedInsteadOfForbidden: Fault = {
  id: '401-instead-of-403',
  clause: 'redeliver.errors.403.scope',
  description: 'Redelivery answers a token without update:event_deliveries with 401 instead of 403 (still a refusal).',
  install(app) {
    editReplies(app, ['redeliver'], (reply) => (reply.status === FORBIDDEN ? withStatus(reply, UNAUTHORIZED) : reply));
  },
};
