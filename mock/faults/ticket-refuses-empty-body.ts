// A validator that wants at least one field in the ticket request, where the spec makes every
// field optional: the simplest request, {}, is refused. Every test that creates a ticket with an
// empty body fails with it.
import type { Fault } from './fault.ts';
import { editBodySchema } from './support/check-edits.ts';

export const ticketRefusesEmptyBody: Fault = {
  id: 'ticket-refuses-empty-body',
  clause: 'sso-ticket.body.optional',
  description: 'Ticket creation refuses a body with no field ({}) with 400 (so every test that creates a ticket with {} fails).',
  install(app) {
    editBodySchema(app, 'sso-ticket', (body) => {
      body.minProperties = 1;
    });
  },
};
