// Requests no route takes: an unknown path (404), or a known path with a method it does not
// allow (405, with an Allow header). Both answer with the ordinary error body.
import type { Components } from '../components.ts';
import { withHeaders, type RouteHandler } from '../exchange.ts';

export function notFoundRoute(deps: Components): RouteHandler {
  return async function notFound() {
    return deps.errors.reply('route_not_found');
  };
}

export function methodNotAllowedRoute(deps: Components): RouteHandler {
  return async function methodNotAllowed(exchange) {
    const allow = (exchange.allow ?? []).join(', ');
    return withHeaders(deps.errors.reply('method_not_allowed', allow), { allow });
  };
}
