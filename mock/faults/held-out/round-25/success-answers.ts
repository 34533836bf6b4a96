// Success answers: a name passed through lodash's _.truncate with its defaults (30 characters), a
// fingerprint served only for connections whose credentials are verified, created_at written by
// Go's fmt.Sprint of a time.Time; and the observed rules: a custom domain's ticket host cut to its
// registrable domain by the cookie helper, ticket codes made with
// randomBytes(24).toString("base64url"). Each changes one thing of the answer; the rest is as
// before.
import { randomBytes } from 'node:crypto';
import { editSuccessReplies } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';

type Fields = Record<string, unknown>;
const isObject = (value: unknown): value is Fields => value !== null && typeof value === 'object' && !Array.isArray(value);
/** lodash's _.truncate defaults: length 30, omission "...". */
const TRUNCATE_LENGTH = 30;
const OMISSION = '...';
/** The custom-domain header, under the spec's name and the service's. */
const CUSTOM_DOMAIN_HEADERS = ['tenant-custom-domain', 'auth0-custom-domain'];
/** randomBytes(24) in base64url is 32 characters, as many as a ticket code has. */
const CODE_BYTES = 24;

/** A time.Time as Go's String() (and fmt.Sprint) writes it: "2006-01-02 15:04:05.999999999 -0700 MST", zeros of the fraction dropped. */
function goTimeString(iso: string): string | undefined {
  const parsed = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2})(?:\.(\d+))?Z$/.exec(iso);
  if (!parsed) return undefined;
  const fraction = (parsed[3] ?? '').replace(/0+$/, '');
  return `${parsed[1]} ${parsed[2]}${fraction === '' ? '' : `.${fraction}`} +0000 UTC`;
}

export const successAnswerFaults = heldOutFamily([
  {
    id: 'ho25-vault-name-lodash-truncate-defaults',
    clause: 'vault.response.record',
    level: 'contract',
    bug: `The record's name passed through _.truncate(name) in the serializer, the call copied from the list view where it was given { length: 60 } and here given nothing, so lodash's default of ${TRUNCATE_LENGTH} characters applies: a connection whose name is longer than ${TRUNCATE_LENGTH} characters is answered with its first ${TRUNCATE_LENGTH - OMISSION.length} and "${OMISSION}" ("Payments reconciliation con...") instead of its name; shorter names are as before.`,
    install: (app) =>
      editSuccessReplies(app, 'vault', (reply) => {
        if (!isObject(reply.body) || typeof reply.body.name !== 'string' || reply.body.name.length <= TRUNCATE_LENGTH) return reply;
        return { ...reply, body: { ...reply.body, name: `${reply.body.name.slice(0, TRUNCATE_LENGTH - OMISSION.length)}${OMISSION}` } };
      }),
  },
  {
    id: 'ho25-vault-fingerprint-only-when-ready',
    clause: 'vault.record.fingerprint',
    level: 'contract',
    bug: 'The fingerprint read from the credentials service, which answers it only for connections whose credentials have been verified, and the serializer writing fingerprint: creds?.fingerprint ?? "" so that the field is always there: a connection that is not ready is answered "fingerprint": "" instead of its fingerprint (a string of at least 1 character); ready connections are as before.',
    install: (app) =>
      editSuccessReplies(app, 'vault', (reply) =>
        isObject(reply.body) && reply.body.ready === false ? { ...reply, body: { ...reply.body, fingerprint: '' } } : reply,
      ),
  },
  {
    id: 'ho25-created-at-go-time-string',
    clause: 'vault.record.created_at',
    level: 'contract',
    bug: 'A Go handler that builds the answer as a map[string]string, created_at written with fmt.Sprint(rec.CreatedAt) (time.Time\'s String method) where the other timestamps go through a Format(time.RFC3339Nano) helper: created_at is "2024-09-12 12:52:16.553 +0000 UTC" instead of an ISO 8601 date-time; updated_at and refreshed_at are as before.',
    install: (app) =>
      editSuccessReplies(app, 'vault', (reply) => {
        if (!isObject(reply.body) || typeof reply.body.created_at !== 'string') return reply;
        const written = goTimeString(reply.body.created_at);
        return written === undefined ? reply : { ...reply, body: { ...reply.body, created_at: written } };
      }),
  },
  {
    id: 'ho25-ticket-host-registrable-domain',
    clause: 'sso-ticket.custom-domain.host',
    level: 'observed',
    bug: `The ticket's host for a custom domain made with tldts's getDomain(header), the helper that gives the session cookie its domain (the registrable domain), where the host name itself was meant: a ticket asked for with ${CUSTOM_DOMAIN_HEADERS[0]}: login.partner.example is "https://partner.example/self-service/connections-flow?ticket=..." instead of a URL on login.partner.example; a custom domain of two labels, and a ticket without one, are as before.`,
    install: (app) =>
      editSuccessReplies(app, 'sso-ticket', (reply, exchange) => {
        if (!CUSTOM_DOMAIN_HEADERS.some((name) => exchange.headers[name] !== undefined)) return reply;
        if (!isObject(reply.body) || typeof reply.body.ticket !== 'string') return reply;
        const ticket = reply.body.ticket.replace(/^https:\/\/([^/]+)/, (whole, host: string) => {
          const labels = host.split('.');
          return labels.length > 2 ? `https://${labels.slice(-2).join('.')}` : whole;
        });
        return { ...reply, body: { ...reply.body, ticket } };
      }),
  },
  {
    id: 'ho25-ticket-code-base64url-bytes',
    clause: 'sso-ticket.response.shape',
    level: 'observed',
    bug: `Ticket codes made with crypto.randomBytes(${CODE_BYTES}).toString("base64url"), 32 characters as before but of the URL-safe base64 alphabet, so most codes hold a "-" or a "_": tickets are "https://<host>/self-service/connections-flow?ticket=Zk3_q-..." instead of 32 alphanumerics after ticket=; the host and the path are as before.`,
    install: (app) => app.override('ticketCodes', () => () => randomBytes(CODE_BYTES).toString('base64url')),
  },
]);
