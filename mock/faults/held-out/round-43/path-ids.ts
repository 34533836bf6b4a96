// Path ids, each length rule checked for the common form of the request and skipped for another,
// legal one: a Laravel form request that merges the route's ids only where the input lacks them, so
// a query string the operation ignores stands in for the path; a Gin router whose HEAD route, added
// by hand, never binds the id. Other paths are judged as before.
import { capture } from '../../support/captured.ts';
import { decoded } from '../../support/parameter-edits.ts';
import { editRequests } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { answeredInstead } from '../support/answers.ts';

const ID_LENGTH = 26;
const VAULT_MAX = 30;
const BAD_REQUEST = 400;

/** The id brought to the length the rule asks, keeping its start (an id that names nothing). */
const sized = (id: string) => (id.length >= ID_LENGTH ? id.slice(0, ID_LENGTH) : id.padEnd(ID_LENGTH, 'x'));

export const pathIdFaults = heldOutFamily([
  {
    id: 'ho43-laravel-merge-if-missing-query-shadows-route',
    clause: 'redeliver.path.event_id.length',
    level: 'contract',
    bug: `A Laravel redelivery controller whose FormRequest validates the path ids as input, prepareForValidation() { $this->mergeIfMissing(["event_id" => $this->route("event_id"), ...]) } with rules "event_id" => "size:${ID_LENGTH}", while the controller loads the event by $this->route("event_id"): a request whose query string carries an event_id of ${ID_LENGTH} characters (a parameter the operation ignores) has that one validated in place of the path's, so an event id of 25 characters in the path is looked up and answered 404 instead of 400; without the query the 25 characters are refused, and a query of another length changes nothing.`,
    install: (app) =>
      editRequests(app, 'redeliver', (exchange) => {
        const fromQuery = new URLSearchParams(exchange.query).get('event_id');
        const raw = exchange.params.event_id;
        const text = raw === undefined ? undefined : decoded(raw);
        if (fromQuery === null || fromQuery.length !== ID_LENGTH || text === undefined || text.length === ID_LENGTH) return exchange;
        return { ...exchange, params: { ...exchange.params, event_id: sized(text) } };
      }),
  },
  {
    id: 'ho43-gin-head-route-skips-uri-binding',
    clause: 'vault.path.id.length',
    level: 'contract',
    bug: `A Gin vault service whose GET route binds the id with ShouldBindUri into a struct tagged binding:"required,max=${VAULT_MAX}", and whose HEAD route (Gin serves HEAD only where a route is registered; this one was added for a CDN's revalidation) calls store.Exists(c.Param("id")) directly: a HEAD with a connection id of ${VAULT_MAX + 1} characters is answered 404 instead of 400; the same id with GET is still refused 400, and HEAD on an existing id is answered 200 as before.`,
    install: (app) => {
      const errors = capture(app, 'errors');
      app.wrapRoute('vault', (next) => async (exchange) => {
        const reply = await next(exchange);
        const raw = exchange.params.id;
        const text = raw === undefined ? undefined : (decoded(raw) ?? raw);
        if (exchange.method !== 'HEAD' || reply.status !== BAD_REQUEST || text === undefined || text.length <= VAULT_MAX) return reply;
        return answeredInstead(reply, errors().reply('vault_connection_not_found'));
      });
    },
  },
]);
