// A range check that only looks at the top ("ttl_sec <= max"), so negative lifetimes pass.
import type { Fault } from './fault.ts';
import { editBodySchema, fieldNode } from './support/check-edits.ts';

export const acceptsNegativeTtlSec: Fault = {
  id: 'accepts-negative-ttl-sec',
  clause: 'sso-ticket.body.ttl_sec.range',
  description: 'Ticket creation accepts a negative ttl_sec such as -1 (no lower bound is checked).',
  install(app) {
    editBodySchema(app, 'sso-ticket', (body) => {
      delete fieldNode(body, 'ttl_sec').minimum;
    });
  },
};
