// What the operations answer when they succeed: a vault record sent as a list of one, ready as a
// 0/1 column, a name decorated with the environment, timestamps with an offset for Z; a ticket
// under a versioned vendor media type, as a relative URL, with a doubled slash or on a host cached
// per profile; and a 202 whose body is null. Each changes one thing of one answer.
import { observed } from '../../../../specs/index.ts';
import { capture } from '../../support/captured.ts';
import { editSuccessReplies, withContentType } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';

type Fields = Record<string, unknown>;

const TIMESTAMPS = ['created_at', 'updated_at', 'refreshed_at'];
/** GitHub-style API versioning by media type. */
const VERSIONED_MEDIA_TYPE = 'application/vnd.management.v2+json; charset=utf-8';
/** How long the ticket base URL of a profile is kept. */
const BASE_URL_CACHE_MS = 10 * 60 * 1000;

export const successAnswerFaults = heldOutFamily([
  {
    id: 'ho3-vault-record-in-a-list',
    clause: 'vault.response.record',
    level: 'contract',
    bug: "The vault read written with the repository's find() where findOne() was meant: the answer is a list holding the record ([{...}]) instead of the record itself (status 200, every field of the record right).",
    install: (app) => editSuccessReplies(app, 'vault', (reply) => ({ ...reply, body: [reply.body] })),
  },
  {
    id: 'ho3-vault-ready-as-bit',
    clause: 'vault.record.ready',
    level: 'contract',
    bug: 'ready read from a TINYINT(1) column and written as read: the record has ready 1 or 0, a number, instead of true or false.',
    install: (app) =>
      editSuccessReplies(app, 'vault', (reply) => {
        const record = reply.body as Fields;
        return typeof record.ready === 'boolean' ? { ...reply, body: { ...record, ready: record.ready ? 1 : 0 } } : reply;
      }),
  },
  {
    id: 'ho3-vault-name-decorated-with-environment',
    clause: 'vault.record.name',
    level: 'contract',
    bug: 'name written through the display helper of the console, which adds the environment: a connection with an environment comes back named "<name> (<environment>)", which for a long name and environment passes the 150-character maximum; a connection without an environment keeps its name.',
    install: (app) =>
      editSuccessReplies(app, 'vault', (reply) => {
        const record = reply.body as Fields;
        return typeof record.name === 'string' && typeof record.environment === 'string'
          ? { ...reply, body: { ...record, name: `${record.name} (${record.environment})` } }
          : reply;
      }),
  },
  {
    id: 'ho3-vault-timestamps-with-offset',
    clause: 'vault.response.shape',
    level: 'observed',
    bug: 'Timestamps formatted the way Python\'s isoformat() writes UTC: "2024-09-12T12:52:16.553+00:00", still ISO 8601 but not the "Z" form the real service writes.',
    install: (app) =>
      editSuccessReplies(app, 'vault', (reply) => {
        const record = { ...(reply.body as Fields) };
        for (const field of TIMESTAMPS) {
          const value = record[field];
          if (typeof value === 'string' && value.endsWith('Z')) record[field] = `${value.slice(0, -1)}+00:00`;
        }
        return { ...reply, body: record };
      }),
  },
  {
    id: 'ho3-ticket-versioned-media-type',
    clause: 'sso-ticket.response.content-type',
    level: 'contract',
    bug: `Ticket creation answered under a versioned vendor media type (${VERSIONED_MEDIA_TYPE}), as APIs that version by Accept header do: the body is still JSON, but its content type is not application/json.`,
    install: (app) => editSuccessReplies(app, 'sso-ticket', (reply) => withContentType(reply, VERSIONED_MEDIA_TYPE)),
  },
  {
    id: 'ho3-ticket-url-relative',
    clause: 'sso-ticket.response.ticket',
    level: 'contract',
    bug: 'The ticket written as the URL\'s path and query only, for a front end to put its own host in front: ticket is "/self-service/connections-flow?ticket=...", a relative reference, not a URL.',
    install: (app) =>
      editSuccessReplies(app, 'sso-ticket', (reply) => {
        const body = reply.body as Fields;
        if (typeof body.ticket !== 'string') return reply;
        const url = new URL(body.ticket);
        return { ...reply, body: { ...body, ticket: `${url.pathname}${url.search}` } };
      }),
  },
  {
    id: 'ho3-ticket-url-double-slash',
    clause: 'sso-ticket.response.shape',
    level: 'observed',
    bug: `The ticket URL joined from a base URL that ends in "/" and a path that starts with one: "https://<host>/${observed.ticket.path}?..." with two slashes, still a URL but not the recorded shape.`,
    install: (app) =>
      editSuccessReplies(app, 'sso-ticket', (reply) => {
        const body = reply.body as Fields;
        return typeof body.ticket === 'string'
          ? { ...reply, body: { ...body, ticket: body.ticket.replace(observed.ticket.path, `/${observed.ticket.path}`) } }
          : reply;
      }),
  },
  {
    id: 'ho3-ticket-host-cached-per-profile',
    clause: 'sso-ticket.custom-domain.host',
    level: 'observed',
    bug: `The ticket base URL cached per self-service profile for ${BASE_URL_CACHE_MS / 60_000} minutes: after a ticket for a profile, the next tickets for it are on the first one's host whatever tenant-custom-domain they name (a first ticket for a profile is on its own host).`,
    install(app) {
      const clock = capture(app, 'clock');
      const hosts = new Map<string, { host: string; at: number }>();
      editSuccessReplies(app, 'sso-ticket', (reply, exchange) => {
        const body = reply.body as Fields;
        if (typeof body.ticket !== 'string') return reply;
        const profile = exchange.params.id ?? '';
        const url = new URL(body.ticket);
        const now = clock().now();
        const cached = hosts.get(profile);
        if (cached && now - cached.at < BASE_URL_CACHE_MS) {
          url.host = cached.host;
          return { ...reply, body: { ...body, ticket: url.toString() } };
        }
        hosts.set(profile, { host: url.host, at: now });
        return reply;
      });
    },
  },
  {
    id: 'ho3-redeliver-202-body-null',
    clause: 'redeliver.response.body',
    level: 'observed',
    bug: 'Redelivery answers with what the queue returned, which is nothing: the 202 body is JSON null instead of {}.',
    install: (app) => editSuccessReplies(app, 'redeliver', (reply) => ({ ...reply, body: null })),
  },
]);
