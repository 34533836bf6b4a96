// POST /oauth/token (and /oauth/token/): the OAuth 2.0 client-credentials grant (spec section 5,
// rule 3). The audience must be the tenant's management interface; the optional scope narrows
// the grant. Errors have the endpoint's own shape, {error, error_description}.
import { authenticateClient } from '../auth/client-auth.ts';
import type { Components } from '../components.ts';
import { NO_STORE } from '../errors.ts';
import { jsonReply, withHeaders, type RouteHandler } from '../exchange.ts';
import { Refusal, refuseToken } from '../refusal.ts';
import type { Client } from '../store.ts';
import { readTokenRequest, type TokenRequest } from './token-request.ts';

const GRANT_TYPE = 'client_credentials';

export function tokenRoute(deps: Components): RouteHandler {
  return async function issueToken(exchange) {
    const request = readTokenRequest(deps, exchange);
    const { clientId, clientSecret, audience } = requiredParameters(deps, request);
    const client = authenticated(deps, request, clientId, clientSecret);
    if (!deps.tenant.acceptsAudience(audience)) refuseToken(deps, 'access_denied', `Service not found: ${audience}`);
    const scopes = grantedScopes(deps, client, request.scope);
    const token = await deps.issuer.issue(client, scopes);
    return jsonReply(200, { access_token: token.accessToken, token_type: 'Bearer', expires_in: token.expiresIn, scope: token.scope }, NO_STORE);
  };
}

function requiredParameters(deps: Components, request: TokenRequest): { clientId: string; clientSecret: string; audience: string } {
  const { grant_type, client_id, client_secret, audience } = request;
  if (!grant_type) refuseToken(deps, 'invalid_request', 'Missing required parameter: grant_type');
  if (grant_type !== GRANT_TYPE) refuseToken(deps, 'unsupported_grant_type', `Grant type ${grant_type} is not supported; use ${GRANT_TYPE}.`);
  if (!client_id) refuseToken(deps, 'invalid_request', 'Missing required parameter: client_id');
  if (!client_secret) refuseToken(deps, 'invalid_request', 'Missing required parameter: client_secret');
  if (!audience) refuseToken(deps, 'invalid_request', 'Missing required parameter: audience');
  return { clientId: client_id, clientSecret: client_secret, audience };
}

function authenticated(deps: Components, request: TokenRequest, clientId: string, secret: string): Client {
  const client = authenticateClient(deps.store, clientId, secret);
  if (client) return client;
  const refused = deps.errors.tokenReply('invalid_client', 'Client authentication failed.');
  // RFC 6749 section 5.2: a failed Basic authentication is answered with a Basic challenge.
  throw new Refusal(request.authMethod === 'client_secret_basic' ? withHeaders(refused, { 'www-authenticate': 'Basic realm="token"' }) : refused);
}

/** The client's grant, or the part of it the request names; a scope outside the grant is refused. */
function grantedScopes(deps: Components, client: Client, requested: string | undefined): readonly string[] {
  const wanted = (requested ?? '').split(' ').filter((s) => s.length > 0);
  if (wanted.length === 0) return client.scopes;
  const missing = wanted.filter((s) => !client.scopes.includes(s));
  if (missing.length > 0) refuseToken(deps, 'access_denied', `Client has not been granted scopes: ${missing.join(' ')}`);
  return [...new Set(wanted)];
}
