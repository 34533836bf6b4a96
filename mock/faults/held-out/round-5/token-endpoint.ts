// The client-credentials token endpoint and what it issues: secrets hashed as latin1, the grant
// type's two spellings unified, control characters deleted from parameters, an empty scope taken
// as given, client ids looked up in an array that also holds them by index, an OpenID library's
// default scope added; JSON read at one spelling of the path only, bodies sniffed for JSON, and
// the JWKS exponent written as the number it encodes. Each lets one near miss through or changes
// one thing; requests without it get what they got.
import { createHash } from 'node:crypto';
import { observed, tokenPath } from '../../../../specs/index.ts';
import { authenticateClient } from '../../../auth/client-auth.ts';
import type { Exchange } from '../../../exchange.ts';
import { isFormMediaType, isJsonMediaType } from '../../../stages/json-body.ts';
import type { Store } from '../../../store.ts';
import { capture } from '../../support/captured.ts';
import { editReplies, editRequests } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { duringRoutes } from '../round-2/support/during.ts';
import { clientCredentialsOf, tokenBodyFields } from '../round-2/support/token-fields.ts';
import { basicAuthorization, basicCredentialsOf, jsonObject, withTokenParameters } from '../round-4/support/token-requests.ts';
import { editTokenParameters } from '../support/token-parameters.ts';

const GRANT_TYPE = 'client_credentials';
/** The grant type as the gty claim spells it: client-credentials. */
const GTY = observed.tokens.gty;
/** What a log-injection guard deletes from every parameter. */
const CONTROL = /[\t\r\n]/;
const EVERY_CONTROL = new RegExp(CONTROL.source, 'g');
/** The scope an OpenID Connect library adds to every token it issues. */
const OPENID = 'openid';

/** The digest the faulty client check compares: of the secret written as latin1, one byte per character. */
function latin1Digest(text: string): Buffer {
  return createHash('sha256').update(text, 'latin1').digest();
}

/** The request with the client authenticated as `clientId` with `secret`, however it sent its credentials. */
function withCredentials(exchange: Exchange, changes: { clientId?: string; clientSecret?: string }): Exchange {
  const basic = basicCredentialsOf(exchange.headers.authorization);
  if (basic) {
    const authorization = basicAuthorization({
      clientId: changes.clientId ?? basic.clientId,
      clientSecret: changes.clientSecret ?? basic.clientSecret,
    });
    return { ...exchange, headers: { ...exchange.headers, authorization } };
  }
  return withTokenParameters(exchange, {
    ...(changes.clientId !== undefined ? { client_id: changes.clientId } : {}),
    ...(changes.clientSecret !== undefined ? { client_secret: changes.clientSecret } : {}),
  });
}

/** The client at a numeric index of the array the clients were loaded into, or undefined. */
function clientAtIndex(store: Store, key: string): string | undefined {
  return /^(0|[1-9]\d*)$/.test(key) ? store.clients()[Number(key)]?.clientId : undefined;
}

export const tokenEndpointFaults = heldOutFamily([
  {
    id: 'ho5-token-secret-hashed-as-latin1',
    clause: 'token.endpoint.wrong-secret',
    level: 'contract',
    bug: "Secrets hashed with createHash('sha256').update(secret, 'latin1') before the constant-time comparison, which keeps one byte of each character: the client's secret with a letter replaced by a character above U+00FF whose low byte is that letter (\"ť\", U+0165, for \"e\") gets a token instead of 401; a secret with a letter replaced by another letter is still refused.",
    install(app) {
      const store = capture(app, 'store');
      editRequests(app, 'token', (exchange) => {
        const { clientId, clientSecret } = clientCredentialsOf(exchange);
        const client = clientId === undefined ? undefined : store().client(clientId);
        if (client?.secret === undefined || clientSecret === undefined || authenticateClient(store(), clientId!, clientSecret))
          return exchange;
        return latin1Digest(clientSecret).equals(latin1Digest(client.secret))
          ? withCredentials(exchange, { clientSecret: client.secret })
          : exchange;
      });
    },
  },
  {
    id: 'ho5-token-grant-type-spellings-unified',
    clause: 'token.endpoint.grant-type',
    level: 'contract',
    bug: `grant_type compared after its hyphens and underscores are unified (replace(/-/g, "_")), a helper written so that the gty claim's spelling and the grant's compare equal: grant_type "${GTY}", which names no grant of RFC 6749, gets a client-credentials token instead of 400; "password" is still refused.`,
    install: (app) =>
      editTokenParameters(app, (params) =>
        params.grant_type !== undefined && params.grant_type !== GRANT_TYPE && params.grant_type.replace(/-/g, '_') === GRANT_TYPE
          ? { ...params, grant_type: GRANT_TYPE }
          : params,
      ),
  },
  {
    id: 'ho5-token-audience-control-characters-deleted',
    clause: 'token.endpoint.audience',
    level: 'contract',
    bug: 'Token parameters passed through a log-injection guard that deletes tab, CR and LF before they are used: the management audience with a line feed inside it ("https://<tenant>/api/\\nv2/"), another identifier, gets a token instead of 403; an audience that differs in a visible character is still refused.',
    install: (app) =>
      editTokenParameters(app, (params) =>
        params.audience !== undefined && CONTROL.test(params.audience)
          ? { ...params, audience: params.audience.replace(EVERY_CONTROL, '') }
          : params,
      ),
  },
  {
    id: 'ho5-token-empty-scope-taken-as-given',
    clause: 'token.scopes',
    level: 'contract',
    bug: 'The requested scope defaulted with "request.scope ?? grant" where || was meant: a token request with an empty scope parameter ("scope="), which asks for no narrowing, gets a token (and an answer) with an empty scope, carrying none of the client\'s scopes, so every operation refuses it with 403; a request without the parameter gets the whole grant.',
    install(app) {
      const during = duringRoutes(app, ['token'], (exchange) => tokenBodyFields(exchange).scope === '');
      app.override('issuer', (issuer) => ({
        issue: (client, scopes, target) => issuer.issue(client, during() ? [] : scopes, target),
      }));
    },
  },
  {
    id: 'ho5-token-client-found-by-array-index',
    clause: 'token.endpoint.client-id',
    level: 'contract',
    bug: 'Clients loaded into an array and then indexed on it by their ids (clients[client.client_id] = client), so that clients[id] finds them: a client_id of "0" with the first client\'s secret gets a token of that client instead of 401; "0" with a wrong secret is still refused.',
    install(app) {
      const store = capture(app, 'store');
      editRequests(app, 'token', (exchange) => {
        const { clientId } = clientCredentialsOf(exchange);
        const indexed = clientId === undefined || store().client(clientId) ? undefined : clientAtIndex(store(), clientId);
        return indexed === undefined ? exchange : withCredentials(exchange, { clientId: indexed });
      });
    },
  },
  {
    id: 'ho5-token-openid-scope-added',
    clause: 'scopes.catalogue',
    level: 'contract',
    bug: `Tokens issued by an OpenID Connect library that adds "${OPENID}" to every token's scopes: every access token (and the token answer's scope) carries "${OPENID}", which is not action:resource and not in the scope catalogue (nor granted to the client); the operations still authorize by the other scopes.`,
    install: (app) =>
      app.override('issuer', (issuer) => ({
        issue: (client, scopes, target) => issuer.issue(client, [...scopes, OPENID], target),
      })),
  },
  {
    id: 'ho5-token-json-only-without-slash',
    clause: 'token.observed.json-request',
    level: 'observed',
    bug: `The JSON body parser mounted on ${observed.tokens.path} alone, the form parser on both paths: a JSON token request to ${tokenPath} (the spec's path, with the slash) reaches the endpoint without its parameters and is answered 400 "Missing required parameter" instead of a token; the same request to ${observed.tokens.path}, or form-encoded to either, gets one.`,
    install: (app) =>
      editRequests(app, 'token', (exchange) =>
        exchange.path === tokenPath && isJsonMediaType(exchange.headers['content-type'])
          ? { ...exchange, body: Buffer.alloc(0) }
          : exchange,
      ),
  },
  {
    id: 'ho5-token-body-sniffed-as-json',
    clause: 'token.observed.request-rules',
    level: 'observed',
    bug: 'A body parser set to parse any content type whose body looks like JSON (express.json({ type: () => true })): a token request sent as text/plain with a JSON body, which RFC 6749 section 3.2 does not allow, gets a token instead of 400; a text/plain body that is not JSON is still refused.',
    install: (app) =>
      editRequests(app, 'token', (exchange) => {
        const type = exchange.headers['content-type'];
        if (isJsonMediaType(type) || isFormMediaType(type) || !jsonObject(exchange.body.toString('utf8'))) return exchange;
        return { ...exchange, headers: { ...exchange.headers, 'content-type': 'application/json' } };
      }),
  },
  {
    id: 'ho5-jwks-exponent-as-number',
    clause: 'token.observed.jwks',
    level: 'observed',
    bug: 'The JWKS written by a serializer that turns the public exponent into the number it encodes: each key\'s e is 65537 instead of the base64url string "AQAB" (RFC 7518 section 6.3.1), so a JOSE library cannot import the key and verifies no issued token with it.',
    install: (app) =>
      editReplies(app, ['jwks'], (reply) => {
        const jwks = reply.body as { keys?: Array<Record<string, unknown>> } | undefined;
        if (!Array.isArray(jwks?.keys)) return reply;
        const keys = jwks.keys.map((key) =>
          typeof key.e === 'string' ? { ...key, e: Number.parseInt(Buffer.from(key.e, 'base64url').toString('hex'), 16) } : key,
        );
        return { ...reply, body: { ...jwks, keys } };
      }),
  },
]);
