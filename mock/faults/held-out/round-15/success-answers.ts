// Success answers: created_at interpolated as a Date's toString(), the record served under
// application/hal+json, and the record wrapped in a JSON:API-style envelope; and the observed
// rules: the ticket code put in the URL's fragment, and a custom domain nobody verified left out of
// the ticket URL. Each changes one value or one header; everything else is answered as before.
import { bearerToken } from '../../../auth/bearer.ts';
import { capture } from '../../support/captured.ts';
import { editSuccessReplies, withContentType } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { unverifiedParts } from '../support/signatures.ts';

type Fields = Record<string, unknown>;
const CUSTOM_DOMAIN = 'tenant-custom-domain';
const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const two = (n: number) => String(n).padStart(2, '0');

/** Date.prototype.toString() of `iso` on a server whose time zone is UTC. */
function dateToString(iso: string): string {
  const d = new Date(iso);
  const time = `${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())}`;
  return `${DAYS[d.getUTCDay()]} ${MONTHS[d.getUTCMonth()]} ${two(d.getUTCDate())} ${d.getUTCFullYear()} ${time} GMT+0000 (Coordinated Universal Time)`;
}

/** The record answered with `edit` applied to its fields. */
function editRecord(edit: (record: Fields) => Fields) {
  return <R extends { body?: unknown }>(reply: R): R =>
    reply.body !== null && typeof reply.body === 'object' ? { ...reply, body: edit(reply.body as Fields) } : reply;
}

export const successAnswerFaults = heldOutFamily([
  {
    id: 'ho15-created-at-date-to-string',
    clause: 'vault.record.created_at',
    level: 'contract',
    bug: 'created_at put into the answer through a template literal (`${row.created_at}`) of the Date the driver gives, which is Date.prototype.toString(), where toISOString() was meant: created_at is "Thu Sep 12 2024 12:52:16 GMT+0000 (Coordinated Universal Time)" instead of an ISO 8601 date-time; updated_at and refreshed_at are as before.',
    install: (app) =>
      editSuccessReplies(
        app,
        'vault',
        editRecord((record) =>
          typeof record.created_at === 'string' && !Number.isNaN(Date.parse(record.created_at))
            ? { ...record, created_at: dateToString(record.created_at) }
            : record,
        ),
      ),
  },
  {
    id: 'ho15-vault-hal-content-type',
    clause: 'vault.response.content-type',
    level: 'contract',
    bug: 'The read answered through the hypermedia serializer the newer endpoints use, which sets its own media type: the record comes with Content-Type application/hal+json; charset=utf-8 instead of application/json; the body is as before.',
    install: (app) => editSuccessReplies(app, 'vault', (reply) => withContentType(reply, 'application/hal+json; charset=utf-8')),
  },
  {
    id: 'ho15-vault-record-in-data-envelope',
    clause: 'vault.response.record',
    level: 'contract',
    bug: 'The record wrapped by a response interceptor written for the list endpoints ({ data: ... }, the JSON:API habit): the read answers {"data": {<the record>}} instead of the record itself; the status and the headers are as before.',
    install: (app) => editSuccessReplies(app, 'vault', (reply) => ({ ...reply, body: { data: reply.body } })),
  },
  {
    id: 'ho15-ticket-code-in-fragment',
    clause: 'sso-ticket.response.shape',
    level: 'observed',
    bug: 'The ticket URL built for the flow\'s single-page app in hash-router mode, the code after "#": every ticket is "https://<host>/self-service/connections-flow#ticket=<code>" instead of "...?ticket=<code>"; the host, the path and the code are as before.',
    install: (app) =>
      editSuccessReplies(
        app,
        'sso-ticket',
        editRecord((body) => (typeof body.ticket === 'string' ? { ...body, ticket: body.ticket.replace('?ticket=', '#ticket=') } : body)),
      ),
  },
  {
    id: 'ho15-custom-domain-unverified-ignored',
    clause: 'sso-ticket.custom-domain.host',
    level: 'observed',
    bug: `The ${CUSTOM_DOMAIN} header honoured only for a domain found in the tenant's table of verified custom domains (a safety check against host-header injection), and the tenant has none: a ticket requested with ${CUSTOM_DOMAIN} "login.partner.example" is on the tenant's own host instead of that domain; a request without the header gets the same ticket as before.`,
    install: (app) => {
      const tenant = capture(app, 'tenant');
      editSuccessReplies(app, 'sso-ticket', (reply, exchange) => {
        const domain = exchange.headers[CUSTOM_DOMAIN];
        const body = reply.body as Fields | undefined;
        if (typeof domain !== 'string' || typeof body?.ticket !== 'string' || !URL.canParse(body.ticket)) return reply;
        const token = bearerToken(exchange.headers.authorization);
        const iss = token === undefined ? undefined : unverifiedParts(token)?.claims.iss;
        const identity = typeof iss === 'string' ? tenant().identityForIssuer(iss, exchange.headers.host) : undefined;
        const url = new URL(body.ticket);
        url.host = identity ? new URL(identity.audience).host : tenant().domain;
        return { ...reply, body: { ...body, ticket: url.href } };
      });
    },
  },
]);
