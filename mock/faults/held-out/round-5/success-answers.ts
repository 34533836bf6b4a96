// What the operations answer when they succeed: a vault record whose ready flag went through
// Boolean() of a text column, whose timestamps were mapped by position, whose environment was left
// out for equalling its default, whose longest name gained an ellipsis, whose unset refresh time
// was filled from another column; and a ticket URL written as a legacy URL object, or on a custom
// domain with the port of the address the tenant was reached at. Each changes one thing of one
// answer.
import { decodeJwt } from 'jose';
import { limit } from '../../../../specs/index.ts';
import { bearerToken } from '../../../auth/bearer.ts';
import type { Exchange } from '../../../exchange.ts';
import { editSuccessReplies } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';

type Fields = Record<string, unknown>;

const CUSTOM_DOMAIN_HEADERS = ['tenant-custom-domain', 'auth0-custom-domain'];
const NAME_MAX = limit('vault.record.name').max!;
const ELLIPSIS = '\u2026';
/** The environment column's default, which a serializer that omits defaults leaves out. */
const DEFAULT_ENVIRONMENT = 'production';

function customDomainOf(exchange: Exchange): string | undefined {
  const value = CUSTOM_DOMAIN_HEADERS.map((name) => exchange.headers[name]).find((v) => typeof v === 'string');
  return typeof value === 'string' ? value : undefined;
}

/** What Node's legacy url.parse() returns for a URL, which JSON.stringify writes as an object. */
function legacyUrlObject(href: string): Fields {
  const url = new URL(href);
  const query = url.search.slice(1);
  return {
    protocol: url.protocol,
    slashes: true,
    auth: null,
    host: url.host,
    port: url.port === '' ? null : url.port,
    hostname: url.hostname,
    hash: url.hash === '' ? null : url.hash,
    search: url.search === '' ? null : url.search,
    query: query === '' ? null : query,
    pathname: url.pathname,
    path: `${url.pathname}${url.search}`,
    href: url.href,
  };
}

/** The port of the issuer the caller's token names, '' when it has none. */
function issuerPort(exchange: Exchange): string {
  const token = bearerToken(exchange.headers.authorization);
  try {
    const iss = token === undefined ? undefined : decodeJwt(token).iss;
    return iss === undefined ? '' : new URL(iss).port;
  } catch {
    return '';
  }
}

export const successAnswerFaults = heldOutFamily([
  {
    id: 'ho5-vault-ready-through-boolean-of-text',
    clause: 'vault.response.record',
    level: 'contract',
    bug: 'ready kept in a text column ("0" or "1") and written with Boolean(value), and Boolean("0") is true: a connection that is not ready comes back with ready: true (a boolean still, but not its value); a ready connection is right.',
    install: (app) =>
      editSuccessReplies(app, 'vault', (reply) => {
        const record = reply.body as Fields;
        return record.ready === false ? { ...reply, body: { ...record, ready: Boolean(String(Number(record.ready))) } } : reply;
      }),
  },
  {
    id: 'ho5-vault-timestamps-mapped-by-position',
    clause: 'vault.response.record',
    level: 'contract',
    bug: 'The record read with a positional row mapper after a migration reordered the columns: created_at holds the update time and updated_at the creation time, so a connection updated after it was created comes back created after its last update; one never updated is right.',
    install: (app) =>
      editSuccessReplies(app, 'vault', (reply) => {
        const record = reply.body as Fields;
        return { ...reply, body: { ...record, created_at: record.updated_at, updated_at: record.created_at } };
      }),
  },
  {
    id: 'ho5-vault-default-environment-omitted',
    clause: 'vault.response.record',
    level: 'contract',
    bug: `A serializer set to leave out values equal to their column's default (as Jackson's NON_DEFAULT does), the environment column defaulting to "${DEFAULT_ENVIRONMENT}": a connection whose environment is "${DEFAULT_ENVIRONMENT}" comes back without environment, though it has one; other environments are written.`,
    install: (app) =>
      editSuccessReplies(app, 'vault', (reply) => {
        const { environment, ...rest } = reply.body as Fields;
        return environment === DEFAULT_ENVIRONMENT ? { ...reply, body: rest } : reply;
      }),
  },
  {
    id: 'ho5-vault-long-name-gains-ellipsis',
    clause: 'vault.record.name',
    level: 'contract',
    bug: `name written through a display helper that marks cut names, "name.length >= ${NAME_MAX} ? name.slice(0, ${NAME_MAX}) + '${ELLIPSIS}'" (>= where > was meant): a name of exactly ${NAME_MAX} characters comes back with an ellipsis added, ${NAME_MAX + 1} characters, past the maximum; shorter names are unchanged.`,
    install: (app) =>
      editSuccessReplies(app, 'vault', (reply) => {
        const record = reply.body as Fields;
        return typeof record.name === 'string' && record.name.length >= NAME_MAX
          ? { ...reply, body: { ...record, name: `${record.name.slice(0, NAME_MAX)}${ELLIPSIS}` } }
          : reply;
      }),
  },
  {
    id: 'ho5-ticket-legacy-url-object',
    clause: 'sso-ticket.response.ticket',
    level: 'contract',
    bug: "The custom-domain branch of ticket creation rebuilds the URL with Node's legacy url.parse() and answers what it returns, which JSON.stringify writes as an object: with tenant-custom-domain, ticket is {protocol, host, pathname, ..., href} instead of a string holding the URL; without the header it is a string.",
    install: (app) =>
      editSuccessReplies(app, 'sso-ticket', (reply, exchange) => {
        const body = reply.body as Fields;
        return customDomainOf(exchange) !== undefined && typeof body.ticket === 'string'
          ? { ...reply, body: { ...body, ticket: legacyUrlObject(body.ticket) } }
          : reply;
      }),
  },
  {
    id: 'ho5-ticket-custom-domain-keeps-port',
    clause: 'sso-ticket.custom-domain.host',
    level: 'observed',
    bug: "The ticket URL made from the tenant's URL with url.hostname = customDomain, where url.host was meant, so the port stays: a caller whose token names the tenant at an address with a port (http://127.0.0.1:<port>/) gets, with tenant-custom-domain, a ticket on <custom domain>:<port> instead of on the custom domain; a caller of the canonical host (no port) gets the custom domain.",
    install: (app) =>
      editSuccessReplies(app, 'sso-ticket', (reply, exchange) => {
        const body = reply.body as Fields;
        const port = issuerPort(exchange);
        if (customDomainOf(exchange) === undefined || port === '' || typeof body.ticket !== 'string') return reply;
        const url = new URL(body.ticket);
        url.port = port;
        return { ...reply, body: { ...body, ticket: url.toString() } };
      }),
  },
  {
    id: 'ho5-vault-refreshed-at-coalesced',
    clause: 'vault.response.shape',
    level: 'observed',
    bug: 'The record read with COALESCE(refreshed_at, updated_at), a query written for a list view\'s "last activity" column: a connection never refreshed comes back with refreshed_at (its update time) instead of without the field, as the real service omits unset optional fields.',
    install: (app) =>
      editSuccessReplies(app, 'vault', (reply) => {
        const record = reply.body as Fields;
        return record.refreshed_at === undefined ? { ...reply, body: { ...record, refreshed_at: record.updated_at } } : reply;
      }),
  },
]);
