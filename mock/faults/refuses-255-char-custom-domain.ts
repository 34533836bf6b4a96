// A server that validates the header as a DNS name, whose text form is at most 253 characters
// (RFC 1035 and RFC 1123), where the spec allows 255: the longest values the spec allows are refused.
import { closedLimit } from '../../specs/index.ts';
import type { Fault } from './fault.ts';
import { customDomainLengthCheck } from './support/custom-domain-check.ts';

/** The longest DNS name in its dotted text form: a limit of DNS, not of the spec. */
const DNS_NAME_MAX_LENGTH = 253;

export const refuses255CharCustomDomain: Fault = {
  id: 'refuses-255-char-custom-domain',
  clause: 'sso-ticket.header.custom-domain.length',
  description: 'Ticket creation refuses a tenant-custom-domain over 253 characters (the DNS limit), so the spec\'s maximum of 255 is refused.',
  install(app) {
    customDomainLengthCheck(app, { min: closedLimit('sso-ticket.header.custom-domain.length').min, max: DNS_NAME_MAX_LENGTH });
  },
};
