// A schema that types ttl_sec as a number rather than an integer: 1.5 seconds is accepted (and
// later rounded somewhere, or not).
import type { Fault } from './fault.ts';
import { editBodySchema, fieldNode } from './support/check-edits.ts';

export const acceptsFractionalTtlSec: Fault = {
  id: 'accepts-fractional-ttl-sec',
  clause: 'sso-ticket.body.ttl_sec.type',
  description: 'Ticket creation accepts a ttl_sec with a fraction such as 1.5 (typed number instead of integer); the range is still checked.',
  install(app) {
    editBodySchema(app, 'sso-ticket', (body) => {
      fieldNode(body, 'ttl_sec').type = 'number';
    });
  },
};
