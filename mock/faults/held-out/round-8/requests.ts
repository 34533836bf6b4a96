// How a request reaches an operation: the custom-domain header measured in its Unicode form, a
// stream id decoded by the legacy unescape(); and the observed rules: path ids whose shape is part
// of the route's pattern (404 where a bad id is a 400), the custom-domain header also read under
// its CGI spelling with underscores, and a ticket body whose trailing data is ignored. Each changes
// the answer to one near miss; requests without it are answered as before.
import { domainToUnicode } from 'node:url';
import { closedLimit } from '../../../../specs/index.ts';
import { isJsonMediaType } from '../../../stages/json-body.ts';
import { HOST_NAME_PATTERN } from '../../../validators.ts';
import { capture } from '../../support/captured.ts';
import { editReplies, editRequests, isErrorBody } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { editHeaderCheck } from '../round-6/support/header-check.ts';
import { answeredInstead } from '../support/answers.ts';
import { alsoValid } from './support/also-valid.ts';

const CUSTOM_DOMAIN = 'tenant-custom-domain';
/** How a CGI or WSGI gateway spells the header (HTTP_TENANT_CUSTOM_DOMAIN), read back with underscores. */
const CGI_SPELLING = CUSTOM_DOMAIN.replace(/-/g, '_');
const customDomainLength = closedLimit('sso-ticket.header.custom-domain.length');
const HOST_NAME = new RegExp(HOST_NAME_PATTERN);
const PERCENT_U = /%u[0-9a-fA-F]{4}/;

/** Whether an ASCII host name with punycode labels is within the bounds once shown in Unicode. */
function withinBoundsAsUnicode(value: unknown): boolean {
  if (typeof value !== 'string' || value.length <= customDomainLength.max || !/(^|\.)xn--/i.test(value) || !HOST_NAME.test(value))
    return false;
  const length = [...domainToUnicode(value)].length;
  return length >= customDomainLength.min && length <= customDomainLength.max;
}

/** The text of the first JSON object a body starts with (strings and nesting followed), or undefined. */
function leadingObject(text: string): string | undefined {
  const start = text.length - text.trimStart().length;
  if (text[start] !== '{') return undefined;
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i += 1) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i += 1;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{' || c === '[') depth += 1;
    else if ((c === '}' || c === ']') && --depth === 0) return text.slice(start, i + 1);
  }
  return undefined;
}

export const requestFaults = heldOutFamily([
  {
    id: 'ho8-custom-domain-measured-as-unicode',
    clause: 'sso-ticket.header.custom-domain.length',
    level: 'contract',
    bug: `${CUSTOM_DOMAIN}'s length measured on url.domainToUnicode(value), to count the characters a user sees: a punycode ("xn--") host name of ${customDomainLength.max + 1} characters, fewer once shown in Unicode, gets a ticket instead of 400; ${customDomainLength.max + 1} characters without punycode labels are still refused.`,
    install: (app) => editHeaderCheck(app, 'sso-ticket', CUSTOM_DOMAIN, (current) => alsoValid(current, withinBoundsAsUnicode)),
  },
  {
    id: 'ho8-stream-id-unescaped',
    clause: 'redeliver.path.id.length',
    level: 'contract',
    bug: 'The stream id decoded with the legacy unescape(), which also reads "%uXXXX": the stream\'s id with its first letter written %u0065 (31 characters, no valid percent-encoding) redelivers the failed event, 202, instead of being refused; the id with that letter written %u0078 ("x") is still refused.',
    install: (app) =>
      editRequests(app, 'redeliver', (exchange) => {
        const raw = exchange.params.id;
        return raw !== undefined && PERCENT_U.test(raw)
          ? { ...exchange, params: { ...exchange.params, id: encodeURIComponent(unescape(raw)) } }
          : exchange;
      }),
  },
  {
    id: 'ho8-id-shape-in-route-pattern',
    clause: 'errors.400.path',
    level: 'observed',
    bug: 'Each path id\'s shape written into the route\'s pattern ({id:est_[1-9A-HJ-NP-Za-km-z]{22}}), so an id that does not fit matches no route: a malformed path id (a stream id of the right length with a "0", which base58 has not) is answered 404 "Not Found" instead of 400 invalid_uri; a well-formed unknown id is still 404.',
    install: (app) => {
      const errors = capture(app, 'errors');
      editReplies(app, ['redeliver', 'sso-ticket', 'vault'], (reply) =>
        reply.status === 400 && isErrorBody(reply.body) && reply.body.errorCode === 'invalid_uri'
          ? answeredInstead(reply, errors().reply('route_not_found'))
          : reply,
      );
    },
  },
  {
    id: 'ho8-custom-domain-underscore-alias',
    clause: 'sso-ticket.response.shape',
    level: 'observed',
    bug: `Headers read through a CGI-style environment where "-" and "_" both become "_" (HTTP_TENANT_CUSTOM_DOMAIN): a request carrying "${CGI_SPELLING}: login.partner.example", a header the interface does not have, gets a ticket on login.partner.example instead of on the tenant's host; a header "tenant.custom.domain" is still ignored.`,
    install: (app) =>
      editRequests(app, 'sso-ticket', (exchange) => {
        const value = exchange.headers[CGI_SPELLING];
        return typeof value === 'string' && exchange.headers[CUSTOM_DOMAIN] === undefined
          ? { ...exchange, headers: { ...exchange.headers, [CUSTOM_DOMAIN]: value } }
          : exchange;
      }),
  },
  {
    id: 'ho8-ticket-json-trailing-data-ignored',
    clause: 'errors.400.body',
    level: 'observed',
    bug: 'Ticket bodies read by a streaming JSON parser that stops after the first complete value and ignores what follows: {"ttl_sec": 60} x and {"ttl_sec": 60}{} get a ticket instead of 400; a body cut short ({"ttl_sec": 60) or with data in front (x {"ttl_sec": 60}) is still refused.',
    install: (app) =>
      editRequests(app, 'sso-ticket', (exchange) => {
        if (!isJsonMediaType(exchange.headers['content-type'])) return exchange;
        const text = exchange.body.toString('utf8');
        try {
          JSON.parse(text);
          return exchange;
        } catch {
          const first = leadingObject(text);
          return first === undefined ? exchange : { ...exchange, body: Buffer.from(first, 'utf8') };
        }
      }),
  },
]);
