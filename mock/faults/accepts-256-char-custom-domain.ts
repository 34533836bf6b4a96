// A length check written with one more than the spec's maximum (an off-by-one in "at most 255").
import { closedLimit } from '../../specs/index.ts';
import type { Fault } from './fault.ts';
import { customDomainLengthCheck } from './support/custom-domain-check.ts';

const bounds = closedLimit('sso-ticket.header.custom-domain.length');

export const accepts256CharCustomDomain: Fault = {
  id: 'accepts-256-char-custom-domain',
  clause: 'sso-ticket.header.custom-domain.length',
  description: 'Ticket creation accepts a tenant-custom-domain of 256 characters (the maximum is 255).',
  install(app) {
    customDomainLengthCheck(app, { min: bounds.min, max: bounds.max + 1 });
  },
};
