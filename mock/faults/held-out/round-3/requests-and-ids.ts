// How a request reaches an operation and names what it acts on: the version segment of the base
// path matched by a pattern, a credential taken under another scheme or from a cookie, the root
// dot of a custom domain dropped before its length is counted, a format extension cut off an event
// id, PUT served as ticket creation, an unknown event read as one in the wrong state, a vault id
// normalised (NFKC) before it is looked up, and a repeated redelivery answered 200. Each changes
// the answer to one near miss; requests without it are answered as before.
import { cards } from '../../../../specs/cards/index.ts';
import { basePath, closedLimit, observed } from '../../../../specs/index.ts';
import type { Reply, RouteKey } from '../../../exchange.ts';
import { mockOperations } from '../../../operations.ts';
import { createRouter } from '../../../router.ts';
import { ssoTicketRoute } from '../../../routes/sso-ticket.ts';
import { capture } from '../../support/captured.ts';
import { editReplies, editRequests } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { handlerOf } from '../round-2/support/handlers.ts';
import { answeredInstead } from '../support/answers.ts';

const CUSTOM_DOMAIN = 'tenant-custom-domain';
const customDomainLength = closedLimit('sso-ticket.header.custom-domain.length');
const eventIdLength = closedLimit('redeliver.path.event_id.length');
const ACCEPTED = observed.operations.redeliver.success.status;
const OK = 200;
const NOT_FOUND = 404;

/** The base path with its version number matched by a pattern, as a router mounted at /api/v:version does. */
const ANY_VERSION = new RegExp(`^${basePath.replace(/v\d+$/, 'v(\\d+)')}(/.*)$`);
/** The scheme passport-jwt's extractors once defaulted to, still accepted beside Bearer by some. */
const JWT_SCHEME = /^JWT +(\S+)$/i;
/** The cookie a browser front end keeps its access token in. */
const TOKEN_COOKIE = 'access_token';
/** Format extensions a router with an optional ".:format" segment takes off the last parameter. */
const FORMAT_EXTENSION = /^(.+)\.(json|xml)$/i;
/** How long a redelivery stays "already queued" for the idempotent repeat. */
const QUEUED_MS = 10 * 60 * 1000;

function decoded(segment: string | undefined): string | undefined {
  try {
    return segment === undefined ? undefined : decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

function messageOf(reply: Reply): unknown {
  const body = reply.body;
  return body !== null && typeof body === 'object' ? (body as { message?: unknown }).message : undefined;
}

function cookie(header: string | undefined, name: string): string | undefined {
  for (const pair of (header ?? '').split(';')) {
    const at = pair.indexOf('=');
    if (at > 0 && pair.slice(0, at).trim() === name) return pair.slice(at + 1).trim();
  }
  return undefined;
}

export const requestAndIdFaults = heldOutFamily([
  {
    id: 'ho3-base-path-any-version',
    clause: 'versioning.base-path',
    level: 'contract',
    bug: `The operations mounted at "/api/v:version" with the version read as a pattern and never compared: a request under /api/v1 or /api/v3 is served as if it were under ${basePath} (the record, a ticket, a redelivery) instead of 404; a base path without a version number is still 404.`,
    install(app) {
      const route = createRouter(Object.values(cards));
      const serve: Partial<Record<RouteKey, ReturnType<typeof handlerOf>>> = Object.fromEntries(
        Object.values(mockOperations).map((operation) => [operation.card.key, handlerOf(app, (c) => operation.route(c, operation.card))]),
      );
      app.wrapRoute('not-found', (next) => async (exchange) => {
        const match = ANY_VERSION.exec(exchange.path);
        if (!match) return next(exchange);
        const path = `${basePath}${match[2]}`;
        const found = route(exchange.method, path);
        const handler = serve[found.key];
        if (!handler) return next(exchange);
        const refused = await next(exchange);
        return answeredInstead(refused, await handler({ ...exchange, path, params: found.params }));
      });
    },
  },
  {
    id: 'ho3-vault-jwt-scheme-accepted',
    clause: 'auth.bearer.required',
    level: 'contract',
    bug: 'The vault read\'s credential extractor also takes the "JWT" scheme that older passport-jwt versions defaulted to: a valid token sent as "JWT <token>" is accepted there instead of 401 (rule 1 asks for Bearer); another scheme ("Basic <token>") is still refused, and the other operations refuse "JWT" too.',
    install: (app) =>
      editRequests(app, 'vault', (exchange) => {
        const match = JWT_SCHEME.exec(exchange.headers.authorization ?? '');
        return match ? { ...exchange, headers: { ...exchange.headers, authorization: `Bearer ${match[1]}` } } : exchange;
      }),
  },
  {
    id: 'ho3-ticket-token-from-cookie',
    clause: 'auth.bearer.required',
    level: 'contract',
    bug: `Ticket creation behind a middleware written for the browser console, which takes the token from an "${TOKEN_COOKIE}" cookie when there is no Authorization header: a request carrying a valid token in that cookie, and no Authorization header, creates a ticket instead of 401; a cookie holding anything else is still refused.`,
    install: (app) =>
      editRequests(app, 'sso-ticket', (exchange) => {
        if (exchange.headers.authorization !== undefined) return exchange;
        const token = cookie(exchange.headers.cookie, TOKEN_COOKIE);
        return token ? { ...exchange, headers: { ...exchange.headers, authorization: `Bearer ${token}` } } : exchange;
      }),
  },
  {
    id: 'ho3-custom-domain-root-dot-stripped',
    clause: 'sso-ticket.header.custom-domain.length',
    level: 'contract',
    bug: `Ticket creation normalises ${CUSTOM_DOMAIN} as a fully qualified name, dropping its root dot, before it counts the length: a ${customDomainLength.max + 1}-character value that ends in "." is taken for the ${customDomainLength.max}-character name before it and accepted instead of 400; ${customDomainLength.max + 1} characters without the dot are still refused.`,
    install: (app) =>
      editRequests(app, 'sso-ticket', (exchange) => {
        const value = exchange.headers[CUSTOM_DOMAIN];
        return typeof value === 'string' && value.endsWith('.')
          ? { ...exchange, headers: { ...exchange.headers, [CUSTOM_DOMAIN]: value.slice(0, -1) } }
          : exchange;
      }),
  },
  {
    id: 'ho3-event-id-format-extension-stripped',
    clause: 'redeliver.path.event_id.length',
    level: 'contract',
    bug: `Redelivery routed with an optional format segment (".../redeliver/:event_id.:format?", as Rails and old Express routes have it): an existing event id followed by ".json" or ".xml" (${eventIdLength.max + 5} or ${eventIdLength.max + 4} characters) is taken for the ${eventIdLength.max}-character id and accepted instead of 400; another suffix is still refused.`,
    install: (app) =>
      editRequests(app, 'redeliver', (exchange) => {
        const match = FORMAT_EXTENSION.exec(exchange.params.event_id ?? '');
        return match ? { ...exchange, params: { ...exchange.params, event_id: match[1]! } } : exchange;
      }),
  },
  {
    id: 'ho3-ticket-created-on-put',
    clause: 'routes.method',
    level: 'observed',
    bug: "Ticket creation registered for POST and PUT (an upsert route copied from the profile resource): a PUT to a profile's sso-ticket path creates a ticket (201) instead of 405; DELETE and the other methods still get 405.",
    install(app) {
      const create = handlerOf(app, (components) => ssoTicketRoute(components, cards['sso-ticket']));
      const route = createRouter([cards['sso-ticket']]);
      app.wrapRoute('method-not-allowed', (next) => async (exchange) => {
        if (exchange.method !== 'PUT') return next(exchange);
        const match = route('POST', exchange.path);
        if (match.key !== 'sso-ticket') return next(exchange);
        const refused = await next(exchange);
        return answeredInstead(refused, await create({ ...exchange, method: 'POST', params: match.params }));
      });
    },
  },
  {
    id: 'ho3-missing-event-read-as-wrong-state',
    clause: 'redeliver.errors.404.event',
    level: 'contract',
    bug: 'Redelivery checks the event with "if (event?.status !== \'failed\') return 409", optional chaining folding the missing event into the state check: an event the stream does not have is answered 409 instead of 404; an unknown stream is still 404, and an event in another state still 409.',
    install(app) {
      const errors = capture(app, 'errors');
      editReplies(app, ['redeliver'], (reply) =>
        reply.status === NOT_FOUND && messageOf(reply) === errors().message('event_not_found')
          ? answeredInstead(reply, errors().reply('event_not_redeliverable'))
          : reply,
      );
    },
  },
  {
    id: 'ho3-vault-id-nfkc-normalised',
    clause: 'vault.response.record',
    level: 'contract',
    bug: "The vault read normalises its path id with NFKC (meant for display names) before validating and looking it up: an id written with a full-width letter (Ｎ for N) is taken for the existing connection's id and answered 200 with its record instead of refused; such an id that names no connection is still refused.",
    install: (app) =>
      editRequests(app, 'vault', (exchange) => {
        const id = decoded(exchange.params.id);
        const normal = id?.normalize('NFKC');
        return id === undefined || normal === id
          ? exchange
          : { ...exchange, params: { ...exchange.params, id: encodeURIComponent(normal!) } };
      }),
  },
  {
    id: 'ho3-redeliver-repeat-answered-200',
    clause: 'redeliver.success.202',
    level: 'contract',
    bug: `Redeliveries remembered as queued for ${QUEUED_MS / 60_000} minutes, a repeat answered "200 OK, already queued": the second redelivery of a failed event (still failed, the destination still down) answers 200 instead of 202; the first answers 202.`,
    install(app) {
      const clock = capture(app, 'clock');
      const queued = new Map<string, number>();
      editReplies(app, ['redeliver'], (reply, exchange) => {
        if (reply.status !== ACCEPTED) return reply;
        const key = `${decoded(exchange.params.id)}/${decoded(exchange.params.event_id)}`;
        const now = clock().now();
        const since = queued.get(key);
        if (since !== undefined && now - since < QUEUED_MS) return { ...reply, status: OK };
        queued.set(key, now);
        return reply;
      });
    },
  },
]);
