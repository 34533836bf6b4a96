// Path ids: a Cloudflare Worker that checks an id's length on the URLPattern group, still
// percent-encoded, before decoding it; a Vert.x Web router whose path regex holds the id's bound, so
// that a longer id matches no route. Other paths are judged as before.
import { decoded } from '../../support/parameter-edits.ts';
import { editReplies, editRequests } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';

const ID_LENGTH = 26;
const VAULT_MAX = 30;
const BAD_REQUEST = 400;
const VERTX_NOT_FOUND = '<html><body><h1>Resource not found</h1></body></html>';

/** The id brought to the length the route checks, keeping its start (an id that names nothing). */
const sized = (id: string) => (id.length >= ID_LENGTH ? id.slice(0, ID_LENGTH) : id.padEnd(ID_LENGTH, 'x'));

export const pathIdFaults = heldOutFamily([
  {
    id: 'ho41-workers-urlpattern-raw-length',
    clause: 'redeliver.path.event_id.length',
    level: 'contract',
    bug: `A Cloudflare Worker that routes with URLPattern({ pathname: "/api/v2/event-streams/:id/redeliver/:event_id" }) and checks match.pathname.groups.event_id.length === ${ID_LENGTH} before decodeURIComponent (URLPattern's groups are the percent-encoded text): an event id of 24 characters with one written %XX (26 as sent) passes and is looked up, answered 404 instead of 400, and the failed event's own id with one character percent-encoded (28 as sent) is refused 400 instead of redelivered; plain ids of 25 or 27 characters are still refused.`,
    install: (app) =>
      editRequests(app, 'redeliver', (exchange) => {
        const raw = exchange.params.event_id;
        const text = raw === undefined ? undefined : decoded(raw);
        if (raw === undefined || text === undefined || raw === text) return exchange;
        if (raw.length === ID_LENGTH && text.length !== ID_LENGTH)
          return { ...exchange, params: { ...exchange.params, event_id: sized(text) } };
        if (raw.length !== ID_LENGTH && text.length === ID_LENGTH)
          return { ...exchange, params: { ...exchange.params, event_id: `${text}x` } };
        return exchange;
      }),
  },
  {
    id: 'ho41-vertx-route-regex-holds-length',
    clause: 'errors.400.path',
    level: 'observed',
    bug: `A Vert.x Web service whose vault route is router.getWithRegex("/api/v2/flows/vault/connections/([^/]{1,${VAULT_MAX}})") (the length rule written into the route): a connection id of ${VAULT_MAX + 1} or more characters matches no route and gets Vert.x's default 404 page (text/html, "Resource not found") instead of 400 invalid_uri; an id of good length but bad shape is still answered 400 by the handler's own check.`,
    install: (app) =>
      editReplies(app, ['vault'], (reply, exchange) => {
        const raw = exchange.params.id;
        const text = raw === undefined ? undefined : (decoded(raw) ?? raw);
        if (reply.status !== BAD_REQUEST || text === undefined || text.length <= VAULT_MAX) return reply;
        return { status: 404, headers: { ...reply.headers, 'content-type': 'text/html; charset=utf-8' }, body: VERTX_NOT_FOUND };
      }),
  },
]);
