// Success answers: a Vercel Edge function that makes the ticket with nanoid; a Cloudflare Worker
// answering the 202 with Response.json; a Java service writing its times with Instant.toString().
// Other answers are as before.
import { randomBytes } from 'node:crypto';
import { editReplies, editSuccessReplies, withContentType } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);
const ACCEPTED = 202;
const TIMES = ['created_at', 'updated_at', 'refreshed_at'] as const;
const TICKET_LENGTH = 32;
/** nanoid's default alphabet (URL-safe base64), drawn from as nanoid(size) draws. */
const URL_ALPHABET = 'useandom-26T198340PX75pxJACKVERYMINDBUSHWOLF_GQZbfghjklqvwyzrict';
const nanoid = () => Array.from(randomBytes(TICKET_LENGTH), (byte) => URL_ALPHABET[byte & 63]!).join('');

export const successAnswerFaults = heldOutFamily([
  {
    id: 'ho41-vercel-edge-ticket-nanoid',
    clause: 'sso-ticket.response.shape',
    level: 'observed',
    bug: `A Vercel Edge function that makes the ticket's code with nanoid(${TICKET_LENGTH}) (Edge-safe, where the Node service used crypto.randomBytes and a base62 encoder), and nanoid's default alphabet is URL-safe base64, A-Za-z0-9 with "_" and "-": most tickets' codes hold a "_" or a "-" instead of ${TICKET_LENGTH} alphanumerics; the URL's host, path and length are as before.`,
    install: (app) =>
      editSuccessReplies(app, 'sso-ticket', (reply) => {
        if (!isObject(reply.body) || typeof reply.body.ticket !== 'string') return reply;
        const url = new URL(reply.body.ticket);
        url.searchParams.set('ticket', nanoid());
        return { ...reply, body: { ...reply.body, ticket: url.toString() } };
      }),
  },
  {
    id: 'ho41-workers-response-json-202-without-charset',
    clause: 'redeliver.response.body',
    level: 'observed',
    bug: 'A Cloudflare Worker that answers an accepted redelivery with Response.json({}, { status: 202 }), whose content type is "application/json" with no charset, while its errors go through a helper that writes application/json; charset=utf-8: the 202 is typed application/json instead of application/json; charset=utf-8; its body, and every error, are as before.',
    install: (app) =>
      editReplies(app, ['redeliver'], (reply) => (reply.status === ACCEPTED ? withContentType(reply, 'application/json') : reply)),
  },
  {
    id: 'ho41-java-instant-tostring-drops-zero-millis',
    clause: 'vault.response.shape',
    level: 'observed',
    bug: 'A Java (Micronaut, records mapped by hand) vault service that writes each time with Instant.toString(), which prints no fraction when the milliseconds are zero: a time that falls on a whole second is answered 2024-10-01T08:30:00Z instead of 2024-10-01T08:30:00.000Z; times with milliseconds (.553Z, .120Z) are as before.',
    install: (app) =>
      editSuccessReplies(app, 'vault', (reply) => {
        if (!isObject(reply.body)) return reply;
        const body: Record<string, unknown> = { ...reply.body };
        let changed = false;
        for (const name of TIMES) {
          const value = body[name];
          if (typeof value === 'string' && value.endsWith('.000Z')) {
            body[name] = `${value.slice(0, -'.000Z'.length)}Z`;
            changed = true;
          }
        }
        return changed ? { ...reply, body } : reply;
      }),
  },
]);
