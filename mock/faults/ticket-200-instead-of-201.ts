// Ticket creation answers 200 OK where the real service answers 201 Created.
import type { Fault } from './fault.ts';
import { editReplies } from './support/route-edits.ts';
import { TICKET_CREATED } from './support/ticket-replies.ts';

const OK = 200;

export const ticket200InsteadOf201: Fault = {
  id: 'ticket-200-instead-of-201',
  clause: 'sso-ticket.success.status',
  description: 'Ticket creation answers 200 instead of 201 (still a success).',
  install(app) {
    editReplies(app, ['sso-ticket'], (reply) => (reply.status === TICKET_CREATED ? { ...reply, status: OK } : reply));
  },
};
