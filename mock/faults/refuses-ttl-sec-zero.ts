// A validator that requires a positive lifetime and forgets that 0 means "the default": ttl_sec 0,
// which the spec allows, is refused.
import { closedLimit } from '../../specs/index.ts';
import type { Fault } from './fault.ts';
import { editBodySchema, fieldNode } from './support/check-edits.ts';

export const refusesTtlSecZero: Fault = {
  id: 'refuses-ttl-sec-zero',
  clause: 'sso-ticket.body.ttl_sec.range',
  description: 'Ticket creation refuses ttl_sec 0 (which means the default) with 400: the lower bound is checked as exclusive.',
  install(app) {
    editBodySchema(app, 'sso-ticket', (body) => {
      const ttlSec = fieldNode(body, 'ttl_sec');
      delete ttlSec.minimum;
      ttlSec.exclusiveMinimum = closedLimit('sso-ticket.body.ttl_sec.range').min;
    });
  },
};
