// The token endpoint, where a first request changes how a later one is judged or two parameters
// meet: a memo of the secret check per client and audience; a resource server found from the
// scopes asked for; and the observed rule: JSON at the path with its trailing slash. Other requests
// are answered as before.
import { captureAll } from '../../support/captured.ts';
import { parametersOf, withParameters } from '../../support/parameter-edits.ts';
import { editRequests } from '../../support/route-edits.ts';
import { isJsonMediaType } from '../../../stages/json-body.ts';
import { heldOutFamily } from '../held-out-fault.ts';

const OK = 200;
/** A scope of the management interface's catalogue: action:resource. */
const MANAGEMENT_SCOPE = /^(?:create|read|update|delete):[a-z_]+$/;
const FORM = 'application/x-www-form-urlencoded';

export const tokenEndpointFaults = heldOutFamily([
  {
    id: 'ho40-secret-check-memoised-per-client-audience',
    clause: 'token.endpoint.wrong-secret',
    level: 'contract',
    bug: 'An Express token endpoint that memoises the outcome of its bcrypt comparison in a Map keyed by `${client_id}|${audience}` (to spare the hashing under load) and, on a hit, skips the comparison altogether rather than comparing the secret with the one remembered: once a client has been issued a token for an audience, a request of that client for that audience with a wrong secret is issued one (200) instead of 401; a wrong secret before any success is still refused 401.',
    install: (app) => {
      const components = captureAll(app);
      const passed = new Set<string>();
      app.wrapRoute('token', (next) => async (exchange) => {
        const parameters = parametersOf(exchange);
        const id = parameters?.client_id;
        const audience = parameters?.audience;
        const secret = parameters?.client_secret;
        if (typeof id !== 'string' || typeof audience !== 'string' || typeof secret !== 'string') return next(exchange);
        const key = `${id}|${audience}`;
        const stored = components().store.client(id)?.secret;
        const sent =
          passed.has(key) && stored !== undefined && secret !== stored
            ? withParameters(exchange, { ...parameters, client_secret: stored })
            : exchange;
        const reply = await next(sent);
        if (reply.status === OK) passed.add(key);
        return reply;
      });
    },
  },
  {
    id: 'ho40-audience-found-from-requested-scopes',
    clause: 'token.endpoint.audience',
    level: 'contract',
    bug: 'A token endpoint (Spring Authorization Server with a custom resource resolver) that, when the request names scopes, finds the resource server as the one defining them and uses the audience only when no scope is given: a global client asking for the Reports API (not granted to it) together with scope update:event_deliveries is issued a management token (200) instead of 403; the Reports API without scope is still refused 403, and the management audience with that scope is issued as before.',
    install: (app) => {
      const components = captureAll(app);
      editRequests(app, 'token', (exchange) => {
        const parameters = parametersOf(exchange);
        if (!parameters || typeof parameters.audience !== 'string' || typeof parameters.scope !== 'string') return exchange;
        const { tenant } = components();
        const api = tenant.api(parameters.audience);
        const asked = parameters.scope.split(' ').filter((s) => s.length > 0);
        if (!api || asked.length === 0 || !asked.every((s) => MANAGEMENT_SCOPE.test(s) && !api.scopes.includes(s))) return exchange;
        return withParameters(exchange, { ...parameters, audience: tenant.audience });
      });
    },
  },
  {
    id: 'ho40-json-token-unparsed-at-trailing-slash',
    clause: 'token.observed.json-request',
    level: 'observed',
    bug: 'An Express app whose token route is registered twice, app.post("/oauth/token", express.json(), express.urlencoded(), handler) and, for the spec\'s path, app.post("/oauth/token/", express.urlencoded(), handler) (copied from an older form-only route): a JSON request to /oauth/token/ reaches the handler with an empty body and is refused 400 invalid_request instead of answered; JSON to /oauth/token, and a form to /oauth/token/, are answered as before.',
    install: (app) =>
      editRequests(app, 'token', (exchange) =>
        exchange.path.endsWith('/') && isJsonMediaType(exchange.headers['content-type'])
          ? { ...exchange, headers: { ...exchange.headers, 'content-type': FORM }, body: Buffer.alloc(0) }
          : exchange,
      ),
  },
]);
