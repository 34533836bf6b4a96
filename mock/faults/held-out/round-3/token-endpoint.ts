// The client-credentials token endpoint and what it answers: a client_id cut to the width of its
// column, a grant type matched by its end, an http audience upgraded to https, requested scopes
// matched ignoring case and written as asked, the secret left unchecked for JSON requests, "+"
// left undecoded in form values, issued tokens cached without the client in the key, and the
// answer's scope joined with commas. Each lets one near miss through or changes one field;
// requests without the near miss get what they got.
import { AsyncLocalStorage } from 'node:async_hooks';
import { observed } from '../../../../specs/index.ts';
import type { Reply } from '../../../exchange.ts';
import { isFormMediaType, isJsonMediaType } from '../../../stages/json-body.ts';
import { capture } from '../../support/captured.ts';
import { editReplies, editRequests } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { tokenBodyFields } from '../round-2/support/token-fields.ts';
import { editTokenParameters } from '../support/token-parameters.ts';

const GRANT_TYPE = 'client_credentials';
const CLIENT_ID_LENGTH = observed.identifiers.client.length;
/** How long an issued token is served again from the cache. */
const CACHE_MS = 10 * 60 * 1000;
const OK = 200;

type Fields = Record<string, unknown>;

function words(scope: string | undefined): string[] {
  return (scope ?? '').split(' ').filter((word) => word.length > 0);
}

function jsonObject(body: Buffer): Fields | undefined {
  try {
    const value: unknown = JSON.parse(body.toString('utf8'));
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Fields) : undefined;
  } catch {
    return undefined;
  }
}

export const tokenEndpointFaults = heldOutFamily([
  {
    id: 'ho3-token-client-id-cut-to-column',
    clause: 'token.endpoint.client-id',
    level: 'contract',
    bug: `Client ids kept in a CHAR(${CLIENT_ID_LENGTH}) column in a non-strict SQL mode, which cuts a longer value to fit: a client_id with characters added after the client's, with its secret, gets a token instead of 401; a client_id with a character changed is still refused.`,
    install: (app) =>
      editTokenParameters(app, (params) =>
        params.client_id !== undefined && params.client_id.length > CLIENT_ID_LENGTH
          ? { ...params, client_id: params.client_id.slice(0, CLIENT_ID_LENGTH) }
          : params,
      ),
  },
  {
    id: 'ho3-token-grant-type-matched-by-its-end',
    clause: 'token.endpoint.grant-type',
    level: 'contract',
    bug: `grant_type matched with endsWith("${GRANT_TYPE}"), so that the URN form of other grants is taken too: "urn:ietf:params:oauth:grant-type:${GRANT_TYPE}", which names no grant of RFC 6749, gets a client-credentials token instead of 400; "password" is still refused.`,
    install: (app) =>
      editTokenParameters(app, (params) =>
        params.grant_type !== undefined && params.grant_type !== GRANT_TYPE && params.grant_type.endsWith(GRANT_TYPE)
          ? { ...params, grant_type: GRANT_TYPE }
          : params,
      ),
  },
  {
    id: 'ho3-token-audience-http-upgraded',
    clause: 'token.endpoint.audience',
    level: 'contract',
    bug: 'Audiences normalised with HTTPS enforced before the API is looked up, "http://" rewritten to "https://": a token is issued for the management audience written over http (http://<tenant>/api/v2/, another identifier) instead of 403; another scheme (ftp://) is still refused.',
    install: (app) =>
      editTokenParameters(app, (params) =>
        params.audience?.startsWith('http://') ? { ...params, audience: `https://${params.audience.slice('http://'.length)}` } : params,
      ),
  },
  {
    id: 'ho3-token-scope-case-insensitive',
    clause: 'scopes.catalogue',
    level: 'contract',
    bug: 'Requested scopes compared with the client\'s grant ignoring case (a case-insensitive IN) and written into the token as the request spelt them: a request for "UPDATE:EVENT_DELIVERIES" gets a token (and an answer) whose scope is that string, which is not a scope of the catalogue, instead of 403 access_denied; a scope outside the grant in any case is still refused.',
    install(app) {
      const asked = new AsyncLocalStorage<string[]>();
      editTokenParameters(app, (params) =>
        params.scope !== undefined && params.scope !== params.scope.toLowerCase()
          ? { ...params, scope: params.scope.toLowerCase() }
          : params,
      );
      app.wrapRoute('token', (next) => async (exchange) => asked.run(words(tokenBodyFields(exchange).scope), () => next(exchange)));
      app.override('issuer', (issuer) => ({
        issue(client, scopes, target) {
          const spelt = asked.getStore() ?? [];
          return issuer.issue(
            client,
            scopes.map((scope) => spelt.find((word) => word.toLowerCase() === scope) ?? scope),
            target,
          );
        },
      }));
    },
  },
  {
    id: 'ho3-token-secret-unchecked-for-json',
    clause: 'token.endpoint.wrong-secret',
    level: 'contract',
    bug: 'JSON token requests served by a handler added later for the SDKs, which looks the client up by client_id and never compares the secret: a JSON request with a wrong client_secret gets a token; the same request form-encoded is still refused with 401.',
    install(app) {
      const store = capture(app, 'store');
      editRequests(app, 'token', (exchange) => {
        if (!isJsonMediaType(exchange.headers['content-type'])) return exchange;
        const fields = jsonObject(exchange.body);
        const client = typeof fields?.client_id === 'string' ? store().client(fields.client_id) : undefined;
        if (!fields || client?.secret === undefined || typeof fields.client_secret !== 'string' || fields.client_secret === '')
          return exchange;
        return { ...exchange, body: Buffer.from(JSON.stringify({ ...fields, client_secret: client.secret }), 'utf8') };
      });
    },
  },
  {
    id: 'ho3-token-form-plus-kept',
    clause: 'token.endpoint',
    level: 'contract',
    bug: 'Form parameters decoded with decodeURIComponent, which leaves "+" as it is: a form request whose scope lists two granted scopes separated the way form encoders write a space ("read:flows_vault_connections+update:event_deliveries") asks for one unknown scope and is refused with 403 instead of a token; the same request with %20 gets one.',
    install: (app) =>
      editRequests(app, 'token', (exchange) =>
        isFormMediaType(exchange.headers['content-type']) && exchange.body.includes('+')
          ? { ...exchange, body: Buffer.from(exchange.body.toString('utf8').replace(/\+/g, '%2B'), 'utf8') }
          : exchange,
      ),
  },
  {
    id: 'ho3-token-cache-keyed-without-client',
    clause: 'token.observed.granted-scopes',
    level: 'observed',
    bug: `Issued tokens cached for ${CACHE_MS / 60_000} minutes by audience and requested scope, after the client has authenticated, with the client left out of the key: a client that asks for the management audience after another one did gets the other client's token (its azp, its scopes, update:event_deliveries included for a client not granted it); a request with a wrong secret is still refused.`,
    install(app) {
      const clock = capture(app, 'clock');
      const issued = new Map<string, { body: unknown; at: number }>();
      editReplies(app, ['token'], (reply, exchange) => {
        if (reply.status !== OK) return reply;
        const fields = tokenBodyFields(exchange);
        const key = `${fields.audience ?? ''}\n${fields.scope ?? ''}`;
        const now = clock().now();
        const cached = issued.get(key);
        if (cached && now - cached.at < CACHE_MS) return { ...reply, body: cached.body };
        issued.set(key, { body: reply.body, at: now });
        return reply;
      });
    },
  },
  {
    id: 'ho3-token-answer-scope-comma-joined',
    clause: 'token.observed.response',
    level: 'observed',
    bug: 'The answer\'s scope written with String(scopes), which joins an array with commas: the token answer says "update:event_deliveries,create:sso_access_tickets,..." instead of the space-separated scope string (the token\'s own scope claim is still space-separated).',
    install: (app) =>
      editReplies(app, ['token'], (reply: Reply) => {
        const body = reply.body as Fields | undefined;
        return reply.status === OK && typeof body?.scope === 'string'
          ? { ...reply, body: { ...body, scope: body.scope.split(' ').join(',') } }
          : reply;
      }),
  },
]);
