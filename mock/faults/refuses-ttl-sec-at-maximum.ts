// A range check written "ttl_sec < max": the maximum the spec allows, 432000, is refused.
import { closedLimit } from '../../specs/index.ts';
import type { Fault } from './fault.ts';
import { editBodySchema, fieldNode } from './support/check-edits.ts';

export const refusesTtlSecAtMaximum: Fault = {
  id: 'refuses-ttl-sec-at-maximum',
  clause: 'sso-ticket.body.ttl_sec.range',
  description: 'Ticket creation refuses ttl_sec 432000, the maximum, with 400 (the upper bound is checked as exclusive).',
  install(app) {
    editBodySchema(app, 'sso-ticket', (body) => {
      const ttlSec = fieldNode(body, 'ttl_sec');
      delete ttlSec.maximum;
      ttlSec.exclusiveMaximum = closedLimit('sso-ticket.body.ttl_sec.range').max;
    });
  },
};
