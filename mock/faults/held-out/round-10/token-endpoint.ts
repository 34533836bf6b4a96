// The token endpoint and what it publishes: a secret comparison whose length error fails open, a
// grant type read as the last segment of a URN, and a client without a grant for an API given the
// management grant instead; and the observed rules: the endpoint registered for every method, the
// scopes asked for judged before the secret, and the JWKS certificate published PEM-armoured. Each
// changes the answer to one near miss; a plainly wrong request is refused as before.
import { observed, tokenPath } from '../../../../specs/index.ts';
import { jsonReply } from '../../../exchange.ts';
import { tokenRoute } from '../../../routes/token.ts';
import { capture } from '../../support/captured.ts';
import { editReplies } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { handlerOf } from '../round-2/support/handlers.ts';
import { editTokenParameters, type TokenParameters } from '../support/token-parameters.ts';
import { tokenRequestOf } from './support/token-request-view.ts';

const GRANT_TYPE = 'client_credentials';
const GRANT_URN_PREFIX = 'urn:ietf:params:oauth:grant-type:';
const TOKEN_PATHS = new Set([observed.tokens.path, tokenPath]);
const PEM_LINE = 64;

/** The parameters with `name` set to `value`, or the same object where `value` is undefined. */
function withParameter(params: TokenParameters, name: string, value: string | undefined): TokenParameters {
  return value === undefined || value === params[name] ? params : { ...params, [name]: value };
}

/** A base64 DER certificate as a PEM block: armour lines, 64 characters a line. */
function pemArmoured(der: string): string {
  const lines = der.match(new RegExp(`.{1,${PEM_LINE}}`, 'g')) ?? [];
  return `-----BEGIN CERTIFICATE-----\n${lines.join('\n')}\n-----END CERTIFICATE-----\n`;
}

export const tokenEndpointFaults = heldOutFamily([
  {
    id: 'ho10-token-secret-length-error-fails-open',
    clause: 'token.endpoint.wrong-secret',
    level: 'contract',
    bug: "The secret compared with timingSafeEqual(Buffer.from(sent), Buffer.from(stored)) inside a try whose catch returns true (written to keep a comparison error from locking clients out), and timingSafeEqual throws on buffers of different lengths: the client's secret with one character added or taken off gets a token instead of 401; a wrong secret of the right length is still refused.",
    install: (app) => {
      const store = capture(app, 'store');
      editTokenParameters(app, (params) => {
        const { client_id: id, client_secret: sent } = params;
        const secret = id === undefined ? undefined : store().client(id)?.secret;
        const lengthsDiffer =
          secret !== undefined && sent !== undefined && sent.length > 0 && Buffer.byteLength(sent) !== Buffer.byteLength(secret);
        return withParameter(params, 'client_secret', lengthsDiffer ? secret : undefined);
      });
    },
  },
  {
    id: 'ho10-token-grant-type-urn-last-segment',
    clause: 'token.endpoint.grant-type',
    level: 'contract',
    bug: `The grant's handler found in a table by grant_type.split(":").pop(), so that the URN grant types of extensions (RFC 8693's) find theirs: "${GRANT_URN_PREFIX}${GRANT_TYPE}", which names no grant, gets a token instead of 400; "${GRANT_URN_PREFIX}password" is still refused.`,
    install: (app) =>
      editTokenParameters(app, (params) =>
        withParameter(
          params,
          'grant_type',
          params.grant_type?.includes(':') && params.grant_type.split(':').pop() === GRANT_TYPE ? GRANT_TYPE : undefined,
        ),
      ),
  },
  {
    id: 'ho10-token-api-grant-falls-back-to-management',
    clause: 'token.endpoint.audience',
    level: 'contract',
    bug: "The client's grant for the API an audience names looked up as client.grants.get(audience) ?? client.managementGrant (a default meant for requests without an audience): a client with no grant for another API of the tenant gets a token for that API's audience, carrying its management scopes, instead of 403; an audience that names no API is still refused.",
    install: (app) => {
      const issuer = capture(app, 'issuer');
      const store = capture(app, 'store');
      const tenant = capture(app, 'tenant');
      editReplies(app, ['token'], async (reply, exchange) => {
        const { client_id: id, audience } = tokenRequestOf(exchange);
        const client = id === undefined ? undefined : store().client(id);
        if (reply.status !== 403 || client === undefined || audience === undefined || !client.managementGrant) return reply;
        if (tenant().api(audience) === undefined || client.grants.has(audience)) return reply;
        const token = await issuer().issue(client, client.scopes, { issuer: tenant().issuer, audience });
        return jsonReply(
          200,
          { access_token: token.accessToken, token_type: 'Bearer', expires_in: token.expiresIn, scope: token.scope },
          reply.headers,
        );
      });
    },
  },
  {
    id: 'ho10-token-route-for-every-method',
    clause: 'token.observed.request-rules',
    level: 'observed',
    bug: `The token endpoint registered with the router's all() instead of post(): PUT ${observed.tokens.path} with a valid form body gets a token instead of 405; DELETE without a body is answered 400 invalid_request instead of 405, and POST as before.`,
    install: (app) => {
      const issue = handlerOf(app, (components) => tokenRoute(components));
      app.wrapRoute('method-not-allowed', (next) => (exchange) => (TOKEN_PATHS.has(exchange.path) ? issue(exchange) : next(exchange)));
    },
  },
  {
    id: 'ho10-token-scopes-judged-before-secret',
    clause: 'token.observed.order',
    level: 'observed',
    bug: 'The scopes asked for checked against the client\'s grant by the request\'s schema step, which runs before client authentication: a request with a wrong secret that asks for a scope the client is not granted is answered 403 access_denied ("Client has not been granted scopes: ...") instead of 401 invalid_client; a wrong secret asking for granted scopes is still answered 401.',
    install: (app) => {
      const store = capture(app, 'store');
      const tenant = capture(app, 'tenant');
      const errors = capture(app, 'errors');
      editReplies(app, ['token'], (reply, exchange) => {
        if (reply.status !== 401) return reply;
        const { client_id: id, audience, scope } = tokenRequestOf(exchange);
        const client = id === undefined ? undefined : store().client(id);
        if (client === undefined || audience === undefined || scope === undefined) return reply;
        const granted = tenant().identityForAudience(audience, exchange.headers.host) ? client.scopes : client.grants.get(audience);
        const missing = scope.split(' ').filter((s) => s.length > 0 && !granted?.includes(s));
        return missing.length === 0
          ? reply
          : { ...errors().tokenReply('access_denied', `Client has not been granted scopes: ${missing.join(' ')}`), headers: reply.headers };
      });
    },
  },
  {
    id: 'ho10-jwks-x5c-pem-armoured',
    clause: 'token.observed.jwks',
    level: 'observed',
    bug: "The JWKS's x5c filled with the certificate file's text, PEM armour and line breaks included, where x5c holds base64 DER (RFC 7517 4.7): each key's x5c[0] starts \"-----BEGIN CERTIFICATE-----\" and no longer decodes as a certificate; kid, n, e and x5t are published as before.",
    install: (app) =>
      editReplies(app, ['jwks'], (reply) => {
        const body = reply.body as { keys?: Array<Record<string, unknown>> } | undefined;
        if (reply.status !== 200 || !Array.isArray(body?.keys)) return reply;
        const keys = body.keys.map((key) => (Array.isArray(key.x5c) ? { ...key, x5c: (key.x5c as string[]).map(pemArmoured) } : key));
        return { ...reply, body: { ...body, keys } };
      }),
  },
]);
