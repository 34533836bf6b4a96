// Redelivery answers 204 No Content where the spec says 202, as a server does that treats "no body"
// as the reason for its status. Other replies are untouched.
import { observed } from '../../specs/index.ts';
import type { Fault } from './fault.ts';
import { editReplies } from './support/route-edits.ts';

const ACCEPTED = observed.operations.redeliver.success.status;
const NO_CONTENT = 204;

export const redeliver204InsteadOf202: Fault = {
  id: 'redeliver-204-instead-of-202',
  clause: 'redeliver.success.202',
  description: 'Redelivery of a failed event answers 204 without a body instead of 202 (the observed {} body goes too).',
  install(app) {
    editReplies(app, ['redeliver'], (reply) => {
      if (reply.status !== ACCEPTED) return reply;
      const { body: _dropped, ...rest } = reply;
      return { ...rest, status: NO_CONTENT };
    });
  },
};
