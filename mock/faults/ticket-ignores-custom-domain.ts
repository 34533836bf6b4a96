// A server that validates the tenant-custom-domain header and then builds the ticket URL from the
// tenant's own domain anyway.
import type { Fault } from './fault.ts';
import { capture } from './support/captured.ts';
import { editTicketBody } from './support/ticket-replies.ts';

export const ticketIgnoresCustomDomain: Fault = {
  id: 'ticket-ignores-custom-domain',
  clause: 'sso-ticket.custom-domain.host',
  description: 'The ticket URL is on the tenant\'s domain even when tenant-custom-domain names another (the header is still validated).',
  install(app) {
    const tenant = capture(app, 'tenant');
    editTicketBody(app, ({ ticket }) => {
      const url = new URL(ticket);
      url.host = tenant().domain;
      return { ticket: url.toString() };
    });
  },
};
