// A handler that sends the serialized ticket as a string through a writer that defaults to HTML
// (as Express's res.send does with a string): the body is JSON, the content type says text/html.
import type { Fault } from './fault.ts';
import { editReplies } from './support/route-edits.ts';
import { TICKET_CREATED } from './support/ticket-replies.ts';

export const ticketContentTypeTextHtml: Fault = {
  id: 'ticket-content-type-text-html',
  clause: 'sso-ticket.response.content-type',
  description: 'Ticket creation answers with content type text/html; charset=utf-8 instead of application/json (the body is still JSON).',
  install(app) {
    editReplies(app, ['sso-ticket'], (reply) => (reply.status === TICKET_CREATED ? { ...reply, headers: { ...reply.headers, 'content-type': 'text/html; charset=utf-8' } } : reply));
  },
};
