// GET /.well-known/openid-configuration: the OpenID Connect discovery document, as a tenant
// publishes it (observed.discovery), with its URLs on the host the request reached. Only the
// endpoints the mock serves are named (the token endpoint and the JWKS), so a client never
// follows a URL into a 404; the lists of what the tenant supports are the recorded ones.
import { observed } from '../../specs/index.ts';
import type { Components } from '../components.ts';
import { jsonReply, type RouteHandler } from '../exchange.ts';

const { path: _path, strength: _strength, ...supported } = observed.discovery;

export function discoveryRoute(deps: Components): RouteHandler {
  return async function publishDiscovery(exchange) {
    const { issuer } = deps.tenant.identityReachedAt(exchange.headers.host);
    return jsonReply(200, {
      issuer,
      token_endpoint: `${issuer}${observed.tokens.path.slice(1)}`,
      jwks_uri: `${issuer}${observed.tokens.jwks_path.slice(1)}`,
      ...supported,
    });
  };
}
