// Faults in the ticket creation's success reply: `edit` gets the ticket URL of each ticket created.
import { observed } from '../../../specs/index.ts';
import type { FaultHooks } from '../../app.ts';
import type { Reply } from '../../exchange.ts';
import { editReplies } from './route-edits.ts';

export const TICKET_CREATED = observed.operations['sso-ticket'].success.status;

export function editTicketBody(app: FaultHooks, edit: (body: { ticket: string }) => unknown): void {
  editReplies(app, ['sso-ticket'], (reply: Reply) => (reply.status === TICKET_CREATED ? { ...reply, body: edit(reply.body as { ticket: string }) } : reply));
}
