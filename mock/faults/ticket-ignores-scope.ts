// A permission table without an entry for ticket creation: every valid token may create tickets.
import { observed } from '../../specs/index.ts';
import type { Fault } from './fault.ts';
import { editPrincipal } from './support/verifier-edits.ts';

const TICKET_SCOPE = observed.operations['sso-ticket'].scope.value;

export const ticketIgnoresScope: Fault = {
  id: 'ticket-ignores-scope',
  clause: 'sso-ticket.scope',
  description: 'Ticket creation does not require create:sso_access_tickets: a valid token without it creates tickets.',
  install(app) {
    editPrincipal(app, (principal) => ({ ...principal, scopes: new Set([...principal.scopes, TICKET_SCOPE]) }));
  },
};
