// What the operations answer when they succeed: a vault record written into a response object
// reused across requests, its id without the type prefix, app_id lost for one provider,
// refreshed_at without its zero seconds, a ticket answer in an envelope or on the host the request
// named, and a 202 that describes the job it queued. Each changes one thing of one answer.
import { observed } from '../../../../specs/index.ts';
import { editSuccessReplies } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';

/** The generic provider a display table of provider names has no entry for. */
const GENERIC_PROVIDER = 'HTTP';
/** A time whose seconds and milliseconds are zero, as a formatter that leaves them out then writes it. */
const ZERO_SECONDS = /T(\d{2}:\d{2}):00(?:\.000)?Z$/;
/** Where an API gateway's envelope puts the answer. */
const ENVELOPE = 'data';
/** What a job queue's answer says of the job it queued. */
const QUEUED = 'queued';
const CUSTOM_DOMAIN_HEADERS = ['tenant-custom-domain', observed.custom_domain_header.value];

type Fields = Record<string, unknown>;

export const successAnswerFaults = heldOutFamily([
  {
    id: 'ho2-vault-record-written-into-shared-object',
    clause: 'vault.response.record',
    level: 'contract',
    bug: "Records written into one response object reused across requests (a module-level DTO that each read assigns the record's fields to): after a connection with optional fields has been read, a connection without them comes back carrying the earlier one's environment, account_name and refreshed_at.",
    install(app) {
      const shared: Fields = {};
      editSuccessReplies(app, 'vault', (reply) => {
        Object.assign(shared, reply.body as Fields);
        return { ...reply, body: { ...shared } };
      });
    },
  },
  {
    id: 'ho2-vault-record-id-without-type-prefix',
    clause: 'vault.response.record',
    level: 'contract',
    bug: 'The record\'s id written from the table\'s key, which is stored without the type prefix the API adds to ids: the vault read answers id "NbWaizZTo4vfWnCwDq76Vj" for the connection ac_NbWaizZTo4vfWnCwDq76Vj named in the path (every other field is right).',
    install: (app) =>
      editSuccessReplies(app, 'vault', (reply) => {
        const record = reply.body as Fields;
        return typeof record.id === 'string' ? { ...reply, body: { ...record, id: record.id.slice(record.id.indexOf('_') + 1) } } : reply;
      }),
  },
  {
    id: 'ho2-vault-app-id-empty-for-generic-provider',
    clause: 'vault.record.app_id',
    level: 'contract',
    bug: `app_id written through a table of provider names that lacks the generic ${GENERIC_PROVIDER} provider, with '' as the fallback: a connection of that provider comes back with app_id "" (under the minimum length of 1); the others are right.`,
    install: (app) =>
      editSuccessReplies(app, 'vault', (reply) => {
        const record = reply.body as Fields;
        return record.app_id === GENERIC_PROVIDER ? { ...reply, body: { ...record, app_id: '' } } : reply;
      }),
  },
  {
    id: 'ho2-vault-refreshed-at-without-zero-seconds',
    clause: 'vault.record.refreshed_at',
    level: 'contract',
    bug: 'refreshed_at written by a formatter that leaves seconds out when they are zero (as Java\'s LocalTime.toString does): a refresh at a whole minute comes back "2024-10-01T08:30Z", which is not a date-time (RFC 3339 requires the seconds); other times are right.',
    install: (app) =>
      editSuccessReplies(app, 'vault', (reply) => {
        const record = reply.body as Fields;
        return typeof record.refreshed_at === 'string' && ZERO_SECONDS.test(record.refreshed_at)
          ? { ...reply, body: { ...record, refreshed_at: record.refreshed_at.replace(ZERO_SECONDS, 'T$1Z') } }
          : reply;
      }),
  },
  {
    id: 'ho2-ticket-answer-in-envelope',
    clause: 'sso-ticket.response.ticket',
    level: 'contract',
    bug: `An API gateway's response envelope: ticket creation answers {"${ENVELOPE}": {"ticket": ...}}, so the answer object has no ticket field of its own.`,
    install: (app) => editSuccessReplies(app, 'sso-ticket', (reply) => ({ ...reply, body: { [ENVELOPE]: reply.body } })),
  },
  {
    id: 'ho2-ticket-host-from-host-header',
    clause: 'sso-ticket.response.shape',
    level: 'observed',
    bug: "The ticket URL built from the Host the request was sent to, without a custom domain: a token of the tenant's own identity gets tickets on the address the API was reached at (127.0.0.1:<port>, a load balancer's name) instead of the tenant's host; with tenant-custom-domain the URL is on the custom domain as before.",
    install: (app) =>
      editSuccessReplies(app, 'sso-ticket', (reply, exchange) => {
        const host = exchange.headers.host;
        const body = reply.body as Fields;
        if (
          host === undefined ||
          typeof body.ticket !== 'string' ||
          CUSTOM_DOMAIN_HEADERS.some((name) => exchange.headers[name] !== undefined)
        )
          return reply;
        const url = new URL(body.ticket);
        url.host = host;
        return { ...reply, body: { ...body, ticket: url.toString() } };
      }),
  },
  {
    id: 'ho2-redeliver-202-describes-the-job',
    clause: 'redeliver.response.body',
    level: 'observed',
    bug: `Redelivery answered by a job queue that says what it queued: the 202 body is {"stream_id": ..., "event_id": ..., "status": "${QUEUED}"} instead of {}.`,
    install: (app) =>
      editSuccessReplies(app, 'redeliver', (reply, exchange) => ({
        ...reply,
        body: { stream_id: exchange.params.id, event_id: exchange.params.event_id, status: QUEUED },
      })),
  },
]);
