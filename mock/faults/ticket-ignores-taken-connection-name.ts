// A server that creates the ticket without checking whether connection_config names a connection
// that already exists (the clash would only surface when the flow runs).
import type { Fault } from './fault.ts';
import { editStore } from './support/store-view.ts';

export const ticketIgnoresTakenConnectionName: Fault = {
  id: 'ticket-ignores-taken-connection-name',
  clause: 'sso-ticket.errors.409.name-taken',
  description: 'Ticket creation accepts a connection_config naming an existing connection instead of answering 409.',
  install(app) {
    editStore(app, () => ({ connectionNameTaken: () => false }));
  },
};
