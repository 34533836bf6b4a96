// The token endpoint: grant_type trimmed by a Mojolicious helper, the audience compared as Java's
// URI.equals compares (the host without case), client ids kept in a MySQL column of an accent- and
// case-insensitive collation; and the observed rules: errors written by Spring Authorization
// Server with a null description left out, expires_in taken as a PHP string from the database, and
// the granted scopes joined with commas by a Go handler. Each changes the answer to one near miss;
// other requests are answered as before.
import { capture } from '../../support/captured.ts';
import { editReplies } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { editTokenParameters } from '../support/token-parameters.ts';

type Fields = Record<string, unknown>;
const isObject = (value: unknown): value is Fields => value !== null && typeof value === 'object' && !Array.isArray(value);
const GRANT = 'client_credentials';

export const tokenEndpointFaults = heldOutFamily([
  {
    id: 'ho26-grant-type-mojo-trimmed',
    clause: 'token.endpoint.grant-type',
    level: 'contract',
    bug: `A Mojolicious (Perl) token endpoint that reads every form parameter through a helper applying s/^\\s+|\\s+$//g (added for the admin forms): grant_type "${GRANT} " (a trailing space, a grant type no client has) gets a token instead of 400 unsupported_grant_type; grant_type "password" is still refused.`,
    install: (app) =>
      editTokenParameters(app, (params) =>
        params.grant_type !== undefined && params.grant_type !== GRANT && params.grant_type.trim() === GRANT
          ? { ...params, grant_type: GRANT }
          : params,
      ),
  },
  {
    id: 'ho26-audience-java-uri-equals',
    clause: 'token.endpoint.audience',
    level: 'contract',
    bug: 'A Scala token endpoint that compares the audience with the APIs\' identifiers as java.net.URI values, whose equals compares the host without case (RFC 3986 makes hosts case-insensitive, but the identifier is an exact string): audience "https://<TENANT HOST IN CAPITALS>/api/v2/" gets a management token instead of 403; "https://other.example/api/v2/" is still refused.',
    install: (app) =>
      editTokenParameters(app, (params) => {
        const parsed = params.audience === undefined ? null : /^(https?:\/\/)([^/]+)(\/.*)?$/.exec(params.audience);
        if (!parsed || parsed[2] === parsed[2]!.toLowerCase()) return params;
        return { ...params, audience: `${parsed[1]}${parsed[2]!.toLowerCase()}${parsed[3] ?? ''}` };
      }),
  },
  {
    id: 'ho26-client-id-mysql-ai-ci',
    clause: 'token.endpoint.client-id',
    level: 'contract',
    bug: "Clients kept in MySQL 8 in a table of the server's default collation utf8mb4_0900_ai_ci, looked up with WHERE client_id = ?: the global client's id written in upper case gets a token (with the global client's secret) instead of being refused as an unknown client; an id with a character changed is still refused.",
    install: (app) => {
      const store = capture(app, 'store');
      editTokenParameters(app, (params) => {
        const given = params.client_id;
        if (given === undefined || store().client(given)) return params;
        const found = store()
          .clients()
          .find((c) => c.clientId.toLowerCase() === given.toLowerCase());
        return found ? { ...params, client_id: found.clientId } : params;
      });
    },
  },
  {
    id: 'ho26-token-error-spring-null-description',
    clause: 'token.observed.errors',
    level: 'observed',
    bug: 'Token errors written by a Spring Authorization Server customisation that throws new OAuth2AuthenticationException(OAuth2ErrorCodes.INVALID_CLIENT) with no description, and the converter leaving a null description out: a wrong secret is answered 401 {"error": "invalid_client"} instead of {error, error_description}; the status and error are as before.',
    install: (app) =>
      editReplies(app, ['token'], (reply) => {
        if (reply.status < 400 || !isObject(reply.body) || typeof reply.body.error !== 'string') return reply;
        const { error_description: _dropped, ...rest } = reply.body;
        return { ...reply, body: rest };
      }),
  },
  {
    id: 'ho26-expires-in-php-string',
    clause: 'token.observed.response',
    level: 'observed',
    bug: 'A Laravel token endpoint that reads the lifetime from the clients table with PDO on MySQL (numbers come back as strings without ATTR_EMULATE_PREPARES off) and answers it with response()->json([... "expires_in" => $client->token_lifetime]): every token is answered with expires_in "86400" (a string) instead of a number; the other members are as before.',
    install: (app) =>
      editReplies(app, ['token'], (reply) =>
        reply.status === 200 && isObject(reply.body) && typeof reply.body.expires_in === 'number'
          ? { ...reply, body: { ...reply.body, expires_in: String(reply.body.expires_in) } }
          : reply,
      ),
  },
  {
    id: 'ho26-granted-scope-go-comma-join',
    clause: 'token.observed.granted-scopes',
    level: 'observed',
    bug: 'A Go token endpoint that writes the granted scopes with strings.Join(granted, ","), as its admin API lists them: a token granted two or more scopes is answered scope "update:event_deliveries,read:flows_vault_connections,..." instead of the scopes separated by spaces; a token of one scope is as before.',
    install: (app) =>
      editReplies(app, ['token'], (reply) =>
        reply.status === 200 && isObject(reply.body) && typeof reply.body.scope === 'string'
          ? { ...reply, body: { ...reply.body, scope: reply.body.scope.split(' ').join(',') } }
          : reply,
      ),
  },
]);
