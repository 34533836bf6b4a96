// Requests: the ticket body decoded as Latin-1 before it is parsed (a charset default), and the
// custom-domain header's upper bound checked one too high. Each changes the answer to its near
// miss; ASCII bodies and a header within bounds are answered as before.
import { editRequests } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';

const CUSTOM_DOMAIN_HEADER = 'tenant-custom-domain';
const CUSTOM_DOMAIN_MAX = 255;

export const requestFaults = heldOutFamily([
  {
    id: 'ho18-ticket-body-decoded-latin1',
    clause: 'sso-ticket.body.nested-rules',
    level: 'observed',
    bug: 'The request body decoded with the HTTP/1.1 default charset ISO-8859-1 when Content-Type names none (JSON is UTF-8): a connection_config.display_name of 100 "é" becomes 200 characters of mojibake and is refused 400 instead of creating the ticket; an ASCII display_name of 100 is accepted as before.',
    install: (app) =>
      editRequests(app, 'sso-ticket', (exchange) => {
        if (exchange.body.every((byte) => byte < 0x80)) return exchange;
        return { ...exchange, body: Buffer.from(exchange.body.toString('latin1'), 'utf8') };
      }),
  },
  {
    id: 'ho18-custom-domain-256-accepted',
    clause: 'sso-ticket.header.custom-domain.length',
    level: 'contract',
    bug: "The custom-domain header's length checked with length > 256 (the DNS wire-format limit with its length octets) instead of > 255: a header of 256 characters is accepted and the ticket created instead of 400; 257 characters are still refused.",
    install: (app) =>
      editRequests(app, 'sso-ticket', (exchange) => {
        const domain = exchange.headers[CUSTOM_DOMAIN_HEADER];
        return typeof domain === 'string' && domain.length === CUSTOM_DOMAIN_MAX + 1
          ? { ...exchange, headers: { ...exchange.headers, [CUSTOM_DOMAIN_HEADER]: domain.slice(1) } }
          : exchange;
      }),
  },
]);
