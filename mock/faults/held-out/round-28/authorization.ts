// Who may call: an nginx auth_request whose answers are cached under the Authorization header alone
// (proxy_cache_key $http_authorization), so a token allowed on one route is allowed on every route;
// redelivery's scopes listed for express-jwt-authz as on the deliveries routes, where any one
// suffices (checkAllScopes false); and the observed rules: the 403's message taken from Spring
// Security's error_description, the ticket body bound by an ASP.NET Core minimal API before the
// handler checks the scope. Each changes the answer to its near miss; other requests are answered as
// before.
import { cards } from '../../../../specs/cards/index.ts';
import { operationKeys } from '../../../../specs/index.ts';
import { capture } from '../../support/captured.ts';
import { editReplies, isErrorBody, MANAGEMENT_ROUTES } from '../../support/route-edits.ts';
import { scopeGrantedWhen } from '../../support/scope-faults.ts';
import { editPrincipal } from '../../support/verifier-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { answeredInstead } from '../support/answers.ts';

const REDELIVER_SCOPE = cards.redeliver.scope.value;
/** The scope of GET /event-streams/{id}/deliveries, listed beside redelivery's in the copied jwtAuthz call. */
const DELIVERIES_READ_SCOPE = 'read:event_deliveries';
/** BearerTokenAccessDeniedHandler's error_description for a token without the scope. */
const SPRING_DESCRIPTION = 'The request requires higher privileges than provided by the access token.';
const INSUFFICIENT_SCOPE = 'insufficient_scope';
/** What System.Text.Json says when ttl_sec cannot be bound to the DTO's int. */
const BINDING_PROBLEM = "'The JSON value could not be converted to System.Int32. Path: $.ttl_sec'";

/** Whether a ticket body fails to bind to the minimal API's DTO (malformed JSON, or a member of another JSON type). */
function unbindable(text: string): boolean {
  if (text.trim() === '') return false;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return true;
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return true;
  const fields = body as Record<string, unknown>;
  const wrong = (name: string, ok: (value: unknown) => boolean) => fields[name] !== undefined && fields[name] !== null && !ok(fields[name]);
  return (
    wrong('ttl_sec', (v) => typeof v === 'number' && Number.isInteger(v)) ||
    wrong('use_for_organization_discovery', (v) => typeof v === 'boolean') ||
    wrong('connection_id', (v) => typeof v === 'string') ||
    wrong('enabled_clients', (v) => Array.isArray(v))
  );
}

export const authorizationFaults = heldOutFamily([
  {
    id: 'ho28-redeliver-nginx-auth-request-cache',
    clause: 'redeliver.errors.403.scope',
    level: 'contract',
    bug: 'An nginx in front of the operations whose auth_request subrequest (the authorization service checks the token and the scope of the URI it is asked about) is cached with proxy_cache_key $http_authorization and proxy_cache_valid 200, the URI left out of the key: once a token has been allowed on one route, say the vault read with read:flows_vault_connections, it redelivers without update:event_deliveries (202 instead of 403); the same token never allowed elsewhere first is still refused 403.',
    install: (app) => {
      const allowed = new Set<string>();
      for (const key of operationKeys) {
        scopeGrantedWhen(cards[key], (exchange) => {
          const credential = exchange.headers.authorization;
          return typeof credential === 'string' && allowed.has(credential);
        })(app);
      }
      editReplies(app, operationKeys, (reply, exchange) => {
        const credential = exchange.headers.authorization;
        if (typeof credential === 'string' && reply.status !== 401 && reply.status !== 403 && reply.status !== 429) allowed.add(credential);
        return reply;
      });
    },
  },
  {
    id: 'ho28-redeliver-jwt-authz-any-of',
    clause: 'redeliver.scope',
    level: 'contract',
    bug: `Redelivery guarded by express-jwt-authz with the scope list copied from the deliveries routes, jwtAuthz(["${DELIVERIES_READ_SCOPE}", "${REDELIVER_SCOPE}"]), whose checkAllScopes defaults to false (any one suffices): a token holding ${DELIVERIES_READ_SCOPE} and not ${REDELIVER_SCOPE} may redeliver (202 instead of 403); a token holding read:event_streams is still refused.`,
    install: (app) =>
      editPrincipal(app, (principal) =>
        principal.scopes.has(DELIVERIES_READ_SCOPE) && !principal.scopes.has(REDELIVER_SCOPE)
          ? { ...principal, scopes: new Set([...principal.scopes, REDELIVER_SCOPE]) }
          : principal,
      ),
  },
  {
    id: 'ho28-403-spring-access-denied-description',
    clause: 'errors.403.scope-named',
    level: 'observed',
    bug: `A Spring Security resource server whose error body for a 403 is filled from the error_description BearerTokenAccessDeniedHandler writes into the WWW-Authenticate challenge: a token without the scope is answered 403 "${SPRING_DESCRIPTION}" instead of "Insufficient scope, expected any of: <scope>"; the status and errorCode are as before.`,
    install: (app) =>
      editReplies(app, MANAGEMENT_ROUTES, (reply) =>
        reply.status === 403 && isErrorBody(reply.body) && reply.body.errorCode === INSUFFICIENT_SCOPE
          ? { ...reply, body: { ...reply.body, message: SPRING_DESCRIPTION } }
          : reply,
      ),
  },
  {
    id: 'ho28-ticket-dotnet-binding-before-scope',
    clause: 'auth.order',
    level: 'observed',
    bug: 'An ASP.NET Core minimal API whose ticket handler takes the body as a [FromBody] DTO and checks the scope itself (user.HasScope(...)) on its first line, so a body that does not bind is refused before the handler runs: a valid token without create:sso_access_tickets and a body that does not bind (ttl_sec "soon", or malformed JSON) is answered 400 instead of 403; with a body that binds it is still 403, and without a token still 401.',
    install: (app) => {
      const errors = capture(app, 'errors');
      editReplies(app, ['sso-ticket'], (reply, exchange) =>
        reply.status === 403 &&
        isErrorBody(reply.body) &&
        reply.body.errorCode === INSUFFICIENT_SCOPE &&
        unbindable(exchange.body.toString('utf8'))
          ? answeredInstead(reply, errors().reply('invalid_body', BINDING_PROBLEM))
          : reply,
      );
    },
  },
]);
