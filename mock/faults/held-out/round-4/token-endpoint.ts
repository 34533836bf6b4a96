// The client-credentials token endpoint and what it answers: the token made for the client_id of
// the body while the Basic header authenticated another, a JSON list read with String(), a grant
// checked for the client rather than for the API it names, Basic credentials decoded twice,
// parameters read from the query string, expires_in counted down from exp, and the Basic branch's
// answer without token_type. Each lets one near miss through or changes one field; requests without
// it get what they got.
import { decodeJwt } from 'jose';
import { authenticateClient } from '../../../auth/client-auth.ts';
import type { Client } from '../../../store.ts';
import { isJsonMediaType } from '../../../stages/json-body.ts';
import { capture } from '../../support/captured.ts';
import { editReplies, editRequests } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { TOKEN_PARAMETER_NAMES, tokenBodyFields } from '../round-2/support/token-fields.ts';
import { basicAuthorization, basicCredentialsOf, formDecode, jsonObject, withTokenParameters } from './support/token-requests.ts';

const OK = 200;

type Fields = Record<string, unknown>;

/** A client's grants in which every API of the tenant is granted, with no scopes where it holds none. */
class EveryApiGranted extends Map<string, readonly string[]> {
  override get(key: string): readonly string[] {
    return super.get(key) ?? [];
  }
}

export const tokenEndpointFaults = heldOutFamily([
  {
    id: 'ho4-token-made-for-body-client-id',
    clause: 'token.endpoint.client-id',
    level: 'contract',
    bug: 'The endpoint authenticates the client of the Basic header and then makes the token for store.client(body.client_id ?? basic.id): a request authenticated as one client with Basic, whose body names another client_id, gets a token of that other client (its azp, its grant) instead of 400; with a wrong Basic secret it is still refused.',
    install(app) {
      const store = capture(app, 'store');
      editRequests(app, 'token', (exchange) => {
        const basic = basicCredentialsOf(exchange.headers.authorization);
        const named = tokenBodyFields(exchange).client_id;
        if (!basic || named === undefined || named === basic.clientId) return exchange;
        if (!authenticateClient(store(), basic.clientId, basic.clientSecret)) return exchange;
        const other = store().client(named);
        if (other?.secret === undefined) return exchange;
        const { authorization: _basic, ...headers } = exchange.headers;
        return withTokenParameters({ ...exchange, headers }, { client_id: named, client_secret: other.secret });
      });
    },
  },
  {
    id: 'ho4-token-json-list-read-as-string',
    clause: 'token.endpoint.grant-type',
    level: 'contract',
    bug: 'JSON token requests read with String(body[name]) for every parameter, which turns a list of one into its element: grant_type ["client_credentials"], a list and not that grant type, gets a token instead of 400; ["password"] is still refused.',
    install: (app) =>
      editRequests(app, 'token', (exchange) => {
        if (!isJsonMediaType(exchange.headers['content-type'])) return exchange;
        const fields = jsonObject(exchange.body.toString('utf8'));
        const lists = TOKEN_PARAMETER_NAMES.filter((name) => Array.isArray(fields?.[name]));
        if (!fields || lists.length === 0) return exchange;
        const read = Object.fromEntries(lists.map((name) => [name, String(fields[name] as unknown[])]));
        return { ...exchange, body: Buffer.from(JSON.stringify({ ...fields, ...read }), 'utf8') };
      }),
  },
  {
    id: 'ho4-token-grant-checked-per-client',
    clause: 'token.endpoint.audience',
    level: 'contract',
    bug: "The grant check asks whether the client holds a grant at all (client.grants.length > 0) and then reads the API's scopes with a default of none: a client granted only the management interface gets a token (with no scopes) for another API of the tenant, https://reports-api.example.com/, instead of 403 access_denied; an audience that names no API is still refused.",
    install: (app) =>
      app.override('store', (store) => {
        const granted = (client: Client | undefined): Client | undefined =>
          client && (client.managementGrant || client.grants.size > 0) ? { ...client, grants: new EveryApiGranted(client.grants) } : client;
        return new Proxy(store, {
          get(target, property) {
            if (property === 'client') return (clientId: string) => granted(target.client(clientId));
            const value: unknown = Reflect.get(target, property);
            return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
          },
        });
      }),
  },
  {
    id: 'ho4-token-basic-credentials-decoded-twice',
    clause: 'token.endpoint.wrong-secret',
    level: 'contract',
    bug: 'Basic credentials form-decoded by the gateway and again by the endpoint: a secret whose first character is escaped twice ("%2565" for "e"), which decodes once to another secret, gets a token instead of 401; a secret escaped once is accepted as it should be, and one escaped twice into another character is still refused.',
    install: (app) =>
      editRequests(app, 'token', (exchange) => {
        const once = basicCredentialsOf(exchange.headers.authorization);
        if (!once) return exchange;
        const clientId = formDecode(once.clientId);
        const clientSecret = formDecode(once.clientSecret);
        if (!clientId || clientSecret === undefined || (clientId === once.clientId && clientSecret === once.clientSecret)) return exchange;
        return { ...exchange, headers: { ...exchange.headers, authorization: basicAuthorization({ clientId, clientSecret }) } };
      }),
  },
  {
    id: 'ho4-token-parameters-from-query',
    clause: 'token.observed.request-rules',
    level: 'observed',
    bug: 'Token parameters read from req.query and req.body merged, as a framework\'s "params" gives them: a POST whose client_secret is in the query string (a secret in a URL, which RFC 6749 section 2.3.1 forbids) and not in the body gets a token instead of 400; a wrong secret there is still refused with 401.',
    install: (app) =>
      editRequests(app, 'token', (exchange) => {
        const query = new URLSearchParams(exchange.query);
        const fields = tokenBodyFields(exchange);
        const added = Object.fromEntries(
          TOKEN_PARAMETER_NAMES.filter((name) => query.getAll(name).length === 1 && fields[name] === undefined).map((name) => [
            name,
            query.get(name)!,
          ]),
        );
        return Object.keys(added).length === 0 ? exchange : withTokenParameters(exchange, added);
      }),
  },
  {
    id: 'ho4-token-expires-in-counted-from-exp',
    clause: 'token.lifetime',
    level: 'observed',
    bug: "expires_in computed as Math.floor((exp * 1000 - Date.now()) / 1000) after the token is signed: unless the clock is on a whole second, the answer says expires_in 86399 instead of 86400 (the token's exp - iat is still 86400).",
    install(app) {
      const clock = capture(app, 'clock');
      editReplies(app, ['token'], (reply) => {
        const body = reply.body as Fields | undefined;
        if (reply.status !== OK || typeof body?.access_token !== 'string') return reply;
        const { exp } = decodeJwt(body.access_token);
        return typeof exp === 'number'
          ? { ...reply, body: { ...body, expires_in: Math.floor((exp * 1000 - clock().now()) / 1000) } }
          : reply;
      });
    },
  },
  {
    id: 'ho4-token-basic-answer-without-token-type',
    clause: 'token.observed.response',
    level: 'observed',
    bug: 'The client_secret_basic branch, added later, writes its own answer and forgets token_type: a token request authenticated with HTTP Basic is answered {access_token, expires_in, scope} without token_type "Bearer"; with the secret in the body the answer is whole.',
    install: (app) =>
      editReplies(app, ['token'], (reply, exchange) => {
        const body = reply.body as Fields | undefined;
        if (reply.status !== OK || !body || !/^Basic /i.test(exchange.headers.authorization ?? '')) return reply;
        const { token_type: _type, ...rest } = body;
        return { ...reply, body: rest };
      }),
  },
]);
