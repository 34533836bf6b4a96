// Ticket creation answers the bare ticket code where the spec wants the ticket's URL, leaving the
// client to know where the flow lives.
import { observed } from '../../specs/index.ts';
import type { Fault } from './fault.ts';
import { editTicketBody } from './support/ticket-replies.ts';

export const ticketCodeInsteadOfUrl: Fault = {
  id: 'ticket-code-instead-of-url',
  clause: 'sso-ticket.response.ticket',
  description: 'The ticket field holds the bare ticket code instead of a URL (so the observed URL shape and custom-domain host go too).',
  install(app) {
    editTicketBody(app, ({ ticket }) => ({ ticket: new URL(ticket).searchParams.get(observed.ticket.query_parameter) }));
  },
};
