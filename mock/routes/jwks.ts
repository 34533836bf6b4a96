// GET /.well-known/jwks.json: the tenant's public signing keys, which verify every token it issues.
import type { Components } from '../components.ts';
import { jsonReply, type RouteHandler } from '../exchange.ts';

export function jwksRoute(deps: Components): RouteHandler {
  return async function publishKeys() {
    return jsonReply(200, deps.keys.jwks);
  };
}
