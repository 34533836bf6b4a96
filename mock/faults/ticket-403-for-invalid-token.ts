// Ticket creation answers a missing or invalid token with 403 Forbidden, where the real service
// answers 401. Still a refusal.
import type { Fault } from './fault.ts';
import { editReplies, withStatus } from './support/route-edits.ts';

const UNAUTHORIZED = 401;
const FORBIDDEN = 403;

export const ticket403ForInvalidToken: Fault = {
  id: 'ticket-403-for-invalid-token',
  clause: 'errors.401.all-operations',
  description: 'Ticket creation answers a missing or invalid token with 403 instead of 401 (still a refusal).',
  install(app) {
    editReplies(app, ['sso-ticket'], (reply) => (reply.status === UNAUTHORIZED ? withStatus(reply, FORBIDDEN) : reply));
  },
};
