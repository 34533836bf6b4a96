// A server behind a TLS-terminating proxy that builds the ticket URL from the scheme it sees:
// http:// instead of https://. Still a URL, not the recorded shape.
import type { Fault } from './fault.ts';
import { editTicketBody } from './support/ticket-replies.ts';

export const ticketUrlOverHttp: Fault = {
  id: 'ticket-url-over-http',
  clause: 'sso-ticket.response.shape',
  description: 'The ticket URL starts with http:// instead of https://.',
  install(app) {
    editTicketBody(app, ({ ticket }) => ({ ticket: ticket.replace(/^https:/, 'http:') }));
  },
};
