// A range check with an off-by-one at the top ("ttl_sec > max + 1" refused, so max + 1 passes).
import { closedLimit } from '../../specs/index.ts';
import type { Fault } from './fault.ts';
import { editBodySchema, fieldNode } from './support/check-edits.ts';

export const acceptsTtlSecOneOverMaximum: Fault = {
  id: 'accepts-ttl-sec-one-over-maximum',
  clause: 'sso-ticket.body.ttl_sec.range',
  description: 'Ticket creation accepts ttl_sec 432001, one over the maximum (the observed 400 for it goes too).',
  install(app) {
    editBodySchema(app, 'sso-ticket', (body) => {
      fieldNode(body, 'ttl_sec').maximum = closedLimit('sso-ticket.body.ttl_sec.range').max + 1;
    });
  },
};
