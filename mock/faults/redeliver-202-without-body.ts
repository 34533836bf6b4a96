// Redelivery answers its 202 with an empty body, where the real service sends {} as JSON.
import { observed } from '../../specs/index.ts';
import type { Fault } from './fault.ts';
import { editReplies, withoutHeaders } from './support/route-edits.ts';

const ACCEPTED = observed.operations.redeliver.success.status;

export const redeliver202WithoutBody: Fault = {
  id: 'redeliver-202-without-body',
  clause: 'redeliver.response.body',
  description: 'The 202 of a redelivery has an empty body and no content type instead of {} as JSON.',
  install(app) {
    editReplies(app, ['redeliver'], (reply) => {
      if (reply.status !== ACCEPTED) return reply;
      const { body: _dropped, ...rest } = withoutHeaders(reply, ['content-type']);
      return rest;
    });
  },
};
