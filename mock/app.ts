// Puts the mock together: builds the components (with any fault overrides), composes each route
// with the checks every request of its kind goes through, applies fault route wrappers on the
// outside, and dispatches exchanges by route.
//
// Every management-interface request (any path under /api/v2) first takes a token from the rate
// limiter, carries the X-RateLimit headers on its answer whatever the answer is, then has its
// headers and body size checked, then runs its route: authenticate, authorize, validate, act,
// respond. The token endpoint does the same with its own bucket and its own error shape.
import { buildComponents, type ComponentInputs, type ComponentName, type ComponentOverride, type Components } from './components.ts';
import { tokenDescriptions, type ApiErrorKind } from './errors.ts';
import { withHeaders, type Exchange, type Reply, type RouteHandler, type RouteKey, type RouteWrapper } from './exchange.ts';
import { rateLimitHeaders } from './rate-limiter.ts';
import { Refusal } from './refusal.ts';
import type { MockOperation } from './operations.ts';
import { createRouter } from './router.ts';
import { methodNotAllowedRoute, notFoundRoute } from './routes/fallback.ts';
import { discoveryRoute } from './routes/discovery.ts';
import { jwksRoute } from './routes/jwks.ts';
import { tokenRoute } from './routes/token.ts';

/** What a fault may do to the mock before it is assembled (see mock/faults/README.md). */
export interface FaultHooks {
  /** Wraps or replaces a component as it is built; the components built after it and every route see the result. */
  override<K extends ComponentName>(name: K, override: ComponentOverride<K>): void;
  /** Wraps a route handler from outside, around its rate limit and checks; a later wrapper wraps an earlier one. */
  wrapRoute(key: RouteKey, wrapper: RouteWrapper): void;
}

/** Collects fault hooks; the app is assembled from it once all faults are installed. */
export class AppAssembly implements FaultHooks {
  readonly overrides = new Map<ComponentName, Array<ComponentOverride<ComponentName>>>();
  readonly wrappers = new Map<RouteKey, RouteWrapper[]>();

  override<K extends ComponentName>(name: K, override: ComponentOverride<K>): void {
    const list = this.overrides.get(name) ?? [];
    list.push(override as unknown as ComponentOverride<ComponentName>);
    this.overrides.set(name, list);
  }

  wrapRoute(key: RouteKey, wrapper: RouteWrapper): void {
    this.wrappers.set(key, [...(this.wrappers.get(key) ?? []), wrapper]);
  }
}

/** What the server answers on its own: unreadable requests, slow ones, and its own failures. */
export type ServerProblem = Extract<ApiErrorKind, 'bad_request' | 'header_fields_too_large' | 'request_timeout' | 'internal_error'>;

export interface App {
  components: Components;
  handle(exchange: Exchange): Promise<Reply>;
  /** The reply to a problem the server meets before or outside a route. */
  problem(kind: ServerProblem, detail?: string): Reply;
}

/** Assembles the mock for its operations (mock/operations.ts; the cards in `inputs` are theirs). */
export function assembleApp(
  inputs: Omit<ComponentInputs, 'cards'>,
  operations: readonly MockOperation[],
  assembly: AppAssembly,
  report: (line: string) => void,
): App {
  const deps = buildComponents({ ...inputs, cards: operations.map((o) => o.card) }, assembly.overrides);
  const matchRoute = createRouter(operations.map((o) => o.card));

  const wrap = (key: RouteKey, handler: RouteHandler): RouteHandler =>
    (assembly.wrappers.get(key) ?? []).reduce((inner, wrapper) => wrapper(inner), handler);
  const checked = (key: RouteKey, route: RouteHandler, shape: BodyErrorShape = 'api') =>
    repeatedHeadersChecked(deps, bodySizeChecked(deps, refusalsAsReplies(deps, key, route, report), shape), shape);
  const managed = (key: RouteKey, route: RouteHandler) => wrap(key, rateLimited(deps, checked(key, route)));

  const apiRoutes: Partial<Record<RouteKey, RouteHandler>> = {
    ...Object.fromEntries(operations.map(({ card, route }) => [card.key, managed(card.key, route(deps, card))])),
    'not-found': managed('not-found', notFoundRoute(deps)),
    'method-not-allowed': managed('method-not-allowed', methodNotAllowedRoute(deps)),
  };
  const otherRoutes: Partial<Record<RouteKey, RouteHandler>> = {
    token: wrap('token', tokenRateLimited(deps, checked('token', tokenRoute(deps), 'token'))),
    jwks: wrap('jwks', checked('jwks', jwksRoute(deps))),
    discovery: wrap('discovery', checked('discovery', discoveryRoute(deps))),
    'not-found': wrap('not-found', checked('not-found', notFoundRoute(deps))),
    'method-not-allowed': wrap('method-not-allowed', checked('method-not-allowed', methodNotAllowedRoute(deps))),
  };

  return {
    components: deps,
    handle(exchange) {
      const match = matchRoute(exchange.method, exchange.path);
      const handler = (match.api ? apiRoutes : otherRoutes)[match.key]!;
      exchange.params = match.params;
      if (match.allow) exchange.allow = match.allow;
      return handler(exchange);
    },
    problem(kind, detail) {
      return deps.errors.reply(kind, detail);
    },
  };
}

/** Every management-interface request costs a token; every answer carries the X-RateLimit headers. */
function rateLimited(deps: Components, next: RouteHandler): RouteHandler {
  return async function rateLimit(exchange) {
    const quota = deps.limiter.take();
    const reply = quota.allowed ? await next(exchange) : deps.errors.reply('too_many_requests');
    return withHeaders(reply, rateLimitHeaders(quota));
  };
}

/** The token endpoint's own bucket; its 429 is in the endpoint's error shape. */
function tokenRateLimited(deps: Components, next: RouteHandler): RouteHandler {
  return async function tokenRateLimit(exchange) {
    const quota = deps.tokenLimiter.take();
    const reply = quota.allowed ? await next(exchange) : deps.errors.tokenReply('too_many_requests', tokenDescriptions.tooManyRequests);
    return withHeaders(reply, rateLimitHeaders(quota));
  };
}

type BodyErrorShape = 'api' | 'token';

/**
 * Two Authorization headers are refused (Node would keep the first, silently). The token endpoint
 * reads its own (Basic) Authorization and refuses repeats there, in its own shape.
 */
function repeatedHeadersChecked(deps: Components, next: RouteHandler, shape: BodyErrorShape): RouteHandler {
  return function repeatedHeaders(exchange) {
    if (shape === 'token' || !exchange.repeatedHeaders.includes('authorization')) return next(exchange);
    return Promise.resolve(deps.errors.reply('bad_authorization_header'));
  };
}

/** A body over the size limit is answered 413, in the error shape of the endpoint. */
function bodySizeChecked(deps: Components, next: RouteHandler, shape: BodyErrorShape): RouteHandler {
  return function bodySize(exchange) {
    if (!exchange.bodyTooLarge) return next(exchange);
    const limit = String(deps.limits.maxBodyBytes);
    return Promise.resolve(
      shape === 'token'
        ? deps.errors.tokenReply('invalid_request', deps.errors.message('payload_too_large', limit), 413)
        : deps.errors.reply('payload_too_large', limit),
    );
  };
}

/** Stages stop a request by throwing a Refusal; here it becomes the reply. Anything else is a bug: 500. */
function refusalsAsReplies(deps: Components, key: RouteKey, next: RouteHandler, report: (line: string) => void): RouteHandler {
  return async function refusals(exchange) {
    try {
      return await next(exchange);
    } catch (error) {
      if (error instanceof Refusal) return error.reply;
      report(`mock: internal error in route ${key}: ${error instanceof Error ? error.message : String(error)}`);
      return deps.errors.reply('internal_error');
    }
  };
}
