// POST /oauth/token (and /oauth/token/): the OAuth 2.0 client-credentials grant (spec section 5,
// rule 3). The client authenticates with its secret (in the body or HTTP Basic) or a client
// assertion (private_key_jwt). The audience names what the token is for: the management
// interface (under the tenant's canonical identity or the origin the mock was reached at, see
// tenant.ts) or another API of the tenant; the client must hold a grant for it. The optional scope
// narrows the grant. Errors have the endpoint's own shape, {error, error_description}.
import { authenticateClient } from '../auth/client-auth.ts';
import type { TokenTarget } from '../auth/issuer.ts';
import type { Components } from '../components.ts';
import { NO_STORE, tokenDescriptions } from '../errors.ts';
import { observed } from '../../specs/index.ts';
import { jsonReply, withHeaders, type Exchange, type RouteHandler } from '../exchange.ts';
import { Refusal, refuseToken } from '../refusal.ts';
import type { Client } from '../store.ts';
import { readTokenRequest, type TokenRequest } from './token-request.ts';

const GRANT_TYPE = 'client_credentials';
const rules = observed.tokens.client_assertion;
const QUOTA_EXCEEDED = observed.tokens.quota.exceeded.description;

/** What a client may get for an audience: the token's issuer and audience, and the granted scopes. */
interface Grant {
  target: TokenTarget;
  scopes: readonly string[];
}

export function tokenRoute(deps: Components): RouteHandler {
  async function authenticated(request: TokenRequest, exchange: Exchange): Promise<Client> {
    if (request.authMethod === 'private_key_jwt') {
      if (request.client_assertion_type !== rules.type) refuseToken(deps, 'invalid_request', `client_assertion_type must be ${rules.type}`);
      if (!request.client_assertion) refuseToken(deps, 'invalid_request', 'Missing required parameter: client_assertion');
      const check = await deps.assertions.verify(request.client_assertion, request.client_id, exchange.headers.host);
      if (check.ok) return check.client;
      return refuseToken(deps, 'invalid_client', check.description);
    }
    if (!request.client_id) refuseToken(deps, 'invalid_request', 'Missing required parameter: client_id');
    if (!request.client_secret) refuseToken(deps, 'invalid_request', 'Missing required parameter: client_secret');
    const client = authenticateClient(deps.store, request.client_id, request.client_secret);
    if (client) return client;
    const refused = deps.errors.tokenReply('invalid_client', tokenDescriptions.clientAuthenticationFailed);
    // RFC 6749 section 5.2: a failed Basic authentication is answered with a Basic challenge.
    throw new Refusal(
      request.authMethod === 'client_secret_basic' ? withHeaders(refused, { 'www-authenticate': 'Basic realm="token"' }) : refused,
    );
  }

  return async function issueToken(exchange) {
    const request = readTokenRequest(deps, exchange);
    if (!request.grant_type) refuseToken(deps, 'invalid_request', 'Missing required parameter: grant_type');
    if (request.grant_type !== GRANT_TYPE)
      refuseToken(deps, 'unsupported_grant_type', `Grant type ${request.grant_type} is not supported; use ${GRANT_TYPE}.`);
    const client = await authenticated(request, exchange);
    if (!request.audience) refuseToken(deps, 'invalid_request', 'Missing required parameter: audience');
    const grant = grantFor(deps, client, request.audience, exchange.headers.host);
    const scopes = grantedScopes(deps, grant.scopes, request.scope);
    // The quota counts tokens issued: only a request that would get one takes from it.
    const quota = deps.tokenQuotas.take(client.clientId);
    if (!quota.allowed) throw new Refusal(withHeaders(deps.errors.tokenReply('too_many_requests', QUOTA_EXCEEDED), quota.headers));
    const token = await deps.issuer.issue(client, scopes, grant.target);
    return jsonReply(
      200,
      { access_token: token.accessToken, token_type: 'Bearer', expires_in: token.expiresIn, scope: token.scope },
      { ...NO_STORE, ...quota.headers },
    );
  };
}

/** The client's grant for the API the audience names; 403 when it names none, or one the client holds no grant for. */
function grantFor(deps: Components, client: Client, audience: string, host: string | undefined): Grant {
  const identity = deps.tenant.identityForAudience(audience, host);
  if (identity) {
    if (!client.managementGrant) refuseToken(deps, 'access_denied', tokenDescriptions.clientNotAuthorized(audience));
    return { target: identity, scopes: client.scopes };
  }
  const api = deps.tenant.api(audience) ?? refuseToken(deps, 'access_denied', tokenDescriptions.serviceNotFound(audience));
  const scopes = client.grants.get(api.identifier) ?? refuseToken(deps, 'access_denied', tokenDescriptions.clientNotAuthorized(audience));
  return { target: { issuer: deps.tenant.issuer, audience: api.identifier }, scopes };
}

/** The grant, or the part of it the request names; a scope outside the grant is refused. */
function grantedScopes(deps: Components, granted: readonly string[], requested: string | undefined): readonly string[] {
  const wanted = (requested ?? '').split(' ').filter((s) => s.length > 0);
  if (wanted.length === 0) return granted;
  const missing = wanted.filter((s) => !granted.includes(s));
  if (missing.length > 0) refuseToken(deps, 'access_denied', `Client has not been granted scopes: ${missing.join(' ')}`);
  return [...new Set(wanted)];
}
