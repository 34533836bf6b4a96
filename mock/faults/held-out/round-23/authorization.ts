// Who may do what: an AWS API Gateway Lambda authorizer whose cached policy allows only the first
// method ARN a token was used on, a client's global flag read back from a Redis hash as the string
// "false" (which is truthy); and the observed rules: a Rails before_action that refuses a taken
// connection name before the scope is checked, and an Azure API Management validate-jwt policy whose
// required scope is matched with separator "," against a space-separated claim. Each changes the
// answer to its near miss; other requests are answered as before.
import { cards } from '../../../../specs/cards/index.ts';
import { operationKeys } from '../../../../specs/index.ts';
import { jsonReply } from '../../../exchange.ts';
import { capture } from '../../support/captured.ts';
import { editPrincipal } from '../../support/verifier-edits.ts';
import { isErrorBody, replacing } from '../../support/route-edits.ts';
import { isJsonMediaType } from '../../../stages/json-body.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { readScopesAt } from '../support/scope-claims.ts';

type Fields = Record<string, unknown>;
const isObject = (value: unknown): value is Fields => value !== null && typeof value === 'object' && !Array.isArray(value);
/** API Gateway's default time to live of an authorizer's cached policy. */
const AUTHORIZER_TTL_MS = 300_000;
const EXPLICIT_DENY = 'User is not authorized to access this resource with an explicit deny';
const VAULT_SCOPE = cards.vault.scope.value;

export const authorizationFaults = heldOutFamily([
  {
    id: 'ho23-lambda-authorizer-first-arn-cached',
    clause: 'auth.schemes',
    level: 'contract',
    bug: `A Lambda TOKEN authorizer in front of the API whose policy allows Resource: event.methodArn, the ARN of the request that called it, and API Gateway caching that policy by token for its default ${AUTHORIZER_TTL_MS / 60_000} minutes: a valid token of the global client used first to read one vault connection is answered 403 "${EXPLICIT_DENY}" when it then reads another connection, or redelivers, instead of being served; a fresh token is served wherever it is used first.`,
    install: (app) => {
      const verifier = capture(app, 'verifier');
      const clock = capture(app, 'clock');
      const policies = new Map<string, { arn: string; at: number }>();
      for (const key of operationKeys) {
        app.wrapRoute(key, (next) => async (exchange) => {
          const authorization = exchange.headers.authorization;
          if (authorization === undefined) return next(exchange);
          const arn = `${exchange.method} ${exchange.path}`;
          const cached = policies.get(authorization);
          if (cached && clock().now() - cached.at < AUTHORIZER_TTL_MS) {
            return cached.arn === arn ? next(exchange) : jsonReply(403, { Message: EXPLICIT_DENY });
          }
          if ((await verifier().verify(authorization, exchange.headers.host)).ok) policies.set(authorization, { arn, at: clock().now() });
          return next(exchange);
        });
      }
    },
  },
  {
    id: 'ho23-global-flag-redis-string',
    clause: 'redeliver.global-client',
    level: 'contract',
    bug: 'Clients cached in a Redis hash (HSET client:<id> global false) and the flag read back with HGET, which answers the string "false", tested for truthiness in JavaScript: every client is taken for a global one, and a non-global client holding update:event_deliveries may redeliver (202) instead of 401 "Client is not global"; a non-global client without the scope is still refused (403 for the scope, where it was 401).',
    install: (app) =>
      editPrincipal(app, (principal) =>
        principal.client.global
          ? principal
          : { ...principal, client: { ...principal.client, global: Boolean(String(principal.client.global)) } },
      ),
  },
  {
    id: 'ho23-taken-name-checked-before-scope',
    clause: 'auth.order',
    level: 'observed',
    bug: 'Ticket creation in a Rails controller whose before_action :refuse_taken_connection_name is declared above before_action :authorize_scope!, so the name is looked up first: a token without create:sso_access_tickets and a body naming an existing connection is answered 409 (the name is taken) instead of 403; a body naming a new connection still gets 403.',
    install: (app) => {
      const store = capture(app, 'store');
      const errors = capture(app, 'errors');
      app.wrapRoute('sso-ticket', (next) => async (exchange) => {
        const reply = await next(exchange);
        if (reply.status !== 403 || !isErrorBody(reply.body) || reply.body.errorCode !== 'insufficient_scope') return reply;
        if (!isJsonMediaType(exchange.headers['content-type'])) return reply;
        let body: unknown;
        try {
          body = JSON.parse(exchange.body.toString('utf8'));
        } catch {
          return reply;
        }
        const name = isObject(body) && isObject(body.connection_config) ? body.connection_config.name : undefined;
        return typeof name === 'string' && store().connectionNameTaken(name)
          ? replacing(reply, errors().reply('connection_name_taken'))
          : reply;
      });
    },
  },
  {
    id: 'ho23-vault-scope-apim-comma-separator',
    clause: 'vault.scope',
    level: 'observed',
    bug: `Azure API Management's validate-jwt policy in front of the vault read with <claim name="scope" match="any" separator=","> around ${VAULT_SCOPE}, where the claim's scopes are separated by spaces: a token holding ${VAULT_SCOPE} among other scopes (the global client's token as issued) is refused 403 instead of being served, since its whole claim is one value; a token asked for with scope=${VAULT_SCOPE} alone is still served.`,
    install: (app) =>
      readScopesAt(app, 'vault', (held) =>
        held.length > 1 && held.includes(VAULT_SCOPE) ? held.filter((scope) => scope !== VAULT_SCOPE) : [...held],
      ),
  },
]);
