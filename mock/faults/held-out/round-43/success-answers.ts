// Success answers: a Rails service whose tickets with a lifetime of their own are made by another
// model, with another code. Other answers are as before.
import { randomBytes } from 'node:crypto';
import { editSuccessReplies } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { isObject, ticketFields } from './support.ts';

const CODE_BYTES = 24;

/** Whether the body asks for a lifetime of its own (ttl_sec given and not 0). */
function timed(value: unknown): boolean {
  return (typeof value === 'number' && value !== 0) || (typeof value === 'string' && value !== '' && Number(value) !== 0);
}

export const successAnswerFaults = heldOutFamily([
  {
    id: 'ho43-rails-timed-ticket-urlsafe-code',
    clause: 'sso-ticket.response.shape',
    level: 'observed',
    bug: `A Rails ticket service that makes a ticket with an explicit lifetime through TimedTicket (an STI subclass added for partner onboarding), whose before_create sets code = SecureRandom.urlsafe_base64(${CODE_BYTES}), while Ticket's own uses SecureRandom.alphanumeric(32): a request with ttl_sec 3600 gets a ticket whose code is 32 characters of URL-safe base64, "-" and "_" among them in most tickets, instead of 32 alphanumerics; a request without ttl_sec, or with ttl_sec 0 (the default lifetime), gets codes as before.`,
    install: (app) =>
      editSuccessReplies(app, 'sso-ticket', (reply, exchange) => {
        if (!timed(ticketFields(exchange)?.ttl_sec) || !isObject(reply.body) || typeof reply.body.ticket !== 'string') return reply;
        const url = new URL(reply.body.ticket);
        url.searchParams.set('ticket', randomBytes(CODE_BYTES).toString('base64url'));
        return { ...reply, body: { ...reply.body, ticket: url.toString() } };
      }),
  },
]);
