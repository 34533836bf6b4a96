// The token endpoint: parameters read through Clojure Ring's merged :params (the query string's
// grant_type taken for the body's), the audience compared by a Cloudflare Worker after new URL()
// drops an empty port, the "@clients" suffix of the token's subject stripped from client ids by a
// Rust (Axum) handler; and the observed rules: errors written from protobuf enum names by a
// gRPC-JSON gateway, the answer's members in protobuf's lowerCamelCase JSON names, and the granted
// scopes marshalled from a DynamoDB string set as a list. Each changes the answer to one near miss;
// other requests are answered as before.
import { observed } from '../../../../specs/index.ts';
import { editReplies, editRequests } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { editTokenParameters } from '../support/token-parameters.ts';

type Fields = Record<string, unknown>;
const isObject = (value: unknown): value is Fields => value !== null && typeof value === 'object' && !Array.isArray(value);
const SUBJECT_SUFFIX = observed.tokens.subject_suffix;
const camel = (name: string) => name.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());

export const tokenEndpointFaults = heldOutFamily([
  {
    id: 'ho27-grant-type-ring-merged-params',
    clause: 'token.endpoint.grant-type',
    level: 'contract',
    bug: 'A Clojure (Ring) token endpoint that reads (:params request), which wrap-params fills from the query string and the form alike: a form without grant_type, posted to /oauth/token?grant_type=client_credentials, gets a token instead of 400; ?grant_type=password is still refused.',
    install: (app) =>
      editRequests(app, 'token', (exchange) => {
        const type = exchange.headers['content-type'];
        if (typeof type !== 'string' || !type.startsWith('application/x-www-form-urlencoded') || exchange.query === '') return exchange;
        const query = new URLSearchParams(exchange.query);
        const form = new URLSearchParams(exchange.body.toString('utf8'));
        const fromQuery = query.get('grant_type');
        if (fromQuery === null || form.has('grant_type')) return exchange;
        form.set('grant_type', fromQuery);
        return { ...exchange, body: Buffer.from(form.toString()) };
      }),
  },
  {
    id: 'ho27-audience-worker-empty-port',
    clause: 'token.endpoint.audience',
    level: 'contract',
    bug: 'A Cloudflare Worker token endpoint that compares new URL(audience).href with the APIs\' identifiers, and the WHATWG parser drops an empty port: audience "https://<tenant host>:/api/v2/" gets a management token instead of 403; "https://<tenant host>:8443/api/v2/" is still refused.',
    install: (app) =>
      editTokenParameters(app, (params) => {
        const parsed = params.audience === undefined ? null : /^(https?:\/\/[^/:?#]+):(\/.*)?$/.exec(params.audience);
        return parsed ? { ...params, audience: `${parsed[1]!}${parsed[2] ?? '/'}` } : params;
      }),
  },
  {
    id: 'ho27-client-id-axum-subject-suffix',
    clause: 'token.endpoint.client-id',
    level: 'contract',
    bug: `A Rust (Axum) token endpoint that strips "${SUBJECT_SUFFIX}" from client_id (its author read the subject's form "<client id>${SUBJECT_SUFFIX}" as the client's full name): client_id "<the global client's id>${SUBJECT_SUFFIX}" gets a token instead of being refused as an unknown client; "<another id>${SUBJECT_SUFFIX}" is still refused.`,
    install: (app) =>
      editTokenParameters(app, (params) =>
        params.client_id !== undefined && params.client_id.endsWith(SUBJECT_SUFFIX)
          ? { ...params, client_id: params.client_id.slice(0, -SUBJECT_SUFFIX.length) }
          : params,
      ),
  },
  {
    id: 'ho27-token-error-protobuf-enum-name',
    clause: 'token.observed.errors',
    level: 'observed',
    bug: 'Token errors written by a gRPC-JSON gateway from a protobuf enum (ErrorCode.INVALID_CLIENT) printed by its name: a wrong secret is answered 401 {"error": "INVALID_CLIENT", ...} instead of "invalid_client"; the status and description are as before.',
    install: (app) =>
      editReplies(app, ['token'], (reply) =>
        reply.status >= 400 && isObject(reply.body) && typeof reply.body.error === 'string'
          ? { ...reply, body: { ...reply.body, error: reply.body.error.toUpperCase() } }
          : reply,
      ),
  },
  {
    id: 'ho27-token-answer-protobuf-camel-names',
    clause: 'token.observed.response',
    level: 'observed',
    bug: "A token answer printed by protobuf's JsonFormat without preservingProtoFieldNames(), so each member takes its lowerCamelCase JSON name: every token is answered {accessToken, tokenType, expiresIn, ...} instead of access_token, token_type, expires_in; the values are as before.",
    install: (app) =>
      editReplies(app, ['token'], (reply) =>
        reply.status === 200 && isObject(reply.body)
          ? { ...reply, body: Object.fromEntries(Object.entries(reply.body).map(([name, value]) => [camel(name), value])) }
          : reply,
      ),
  },
  {
    id: 'ho27-granted-scope-dynamodb-string-set',
    clause: 'token.observed.granted-scopes',
    level: 'observed',
    bug: 'A token endpoint that keeps each grant\'s scopes in a DynamoDB string set and answers the unmarshalled set as it comes: the answer\'s scope is a JSON list ["update:event_deliveries", ...] instead of one space-separated string; the token itself is as before.',
    install: (app) =>
      editReplies(app, ['token'], (reply) =>
        reply.status === 200 && isObject(reply.body) && typeof reply.body.scope === 'string'
          ? { ...reply, body: { ...reply.body, scope: reply.body.scope.split(' ') } }
          : reply,
      ),
  },
]);
