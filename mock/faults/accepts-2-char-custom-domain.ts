// A length check written with one less than the spec's minimum (an off-by-one in "at least 3").
import { closedLimit } from '../../specs/index.ts';
import type { Fault } from './fault.ts';
import { customDomainLengthCheck } from './support/custom-domain-check.ts';

const bounds = closedLimit('sso-ticket.header.custom-domain.length');

export const accepts2CharCustomDomain: Fault = {
  id: 'accepts-2-char-custom-domain',
  clause: 'sso-ticket.header.custom-domain.length',
  description: 'Ticket creation accepts a tenant-custom-domain of 2 characters (the minimum is 3).',
  install(app) {
    customDomainLengthCheck(app, { min: bounds.min - 1, max: bounds.max });
  },
};
