// The token endpoint and what it publishes: an audience checked by the helper written for client
// assertions (the tenant's issuer, or its token endpoint, taken for the management interface), and
// clients remembered as authenticated by their id alone; and the observed rules: client assertions
// MAC'd with the client's secret (client_secret_jwt) taken for private_key_jwt ones, the JWKS's
// certificate chain built to its root with the self-signed certificate added twice, and the
// discovery document's token_endpoint copied from the OpenAPI description. Each changes the answer
// to one near miss or one member; a plainly wrong request is answered as before.
import { compactVerify } from 'jose';
import { resolvePointer } from '../../../../specs/index.ts';
import { audiencesOf, decodeJws } from '../../../auth/bearer.ts';
import type { AssertionCheck } from '../../../auth/client-assertion.ts';
import { capture } from '../../support/captured.ts';
import { editReplies } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { tokenRequestOf } from '../round-10/support/token-request-view.ts';
import { editTokenParameters } from '../support/token-parameters.ts';

type Fields = Record<string, unknown>;

const TOKEN_ENDPOINT_PATH = 'oauth/token';
/** The client-credentials flow's token URL in the OpenAPI description (the spec's example host). */
const SPEC_TOKEN_URL = (
  resolvePointer('#/components/securitySchemes/oAuth2ClientCredentials') as { flows: { clientCredentials: { tokenUrl: string } } }
).flows.clientCredentials.tokenUrl;

/** The reply with its object body changed by `edit` where it is a 200. */
const editOk =
  (edit: (body: Fields) => Fields) =>
  <R extends { status: number; body?: unknown }>(reply: R): R =>
    reply.status === 200 && reply.body !== null && typeof reply.body === 'object' ? { ...reply, body: edit(reply.body as Fields) } : reply;

export const tokenEndpointFaults = heldOutFamily([
  {
    id: 'ho16-audience-checked-as-assertion-audience',
    clause: 'token.endpoint.audience',
    level: 'contract',
    bug: `The token request's audience checked by the helper written for client assertions, for which the tenant's issuer and its token endpoint both name the tenant (RFC 7523 3), and taken then for the management interface: an audience of "https://<tenant>/" (the issuer) or "https://<tenant>/${TOKEN_ENDPOINT_PATH}" gets a management token instead of 403; "https://<tenant>/userinfo" is still refused.`,
    install: (app) => {
      const tenant = capture(app, 'tenant');
      editTokenParameters(app, (params) => {
        const { audience } = params;
        if (audience === undefined || tenant().identityForAudience(audience)) return params;
        const endpoint = audience.endsWith(TOKEN_ENDPOINT_PATH) ? audience.slice(0, -TOKEN_ENDPOINT_PATH.length) : undefined;
        const identity =
          tenant().identityForIssuer(audience) ?? (endpoint === undefined ? undefined : tenant().identityForIssuer(endpoint));
        return identity ? { ...params, audience: identity.audience } : params;
      });
    },
  },
  {
    id: 'ho16-authenticated-clients-remembered-by-id',
    clause: 'token.endpoint.wrong-secret',
    level: 'contract',
    bug: 'Clients that authenticated remembered by their client_id (a memo written to spare the secret hash on every request), and a remembered client let through without its secret being compared again: once a client has had a token, a request with its client_id and a wrong client_secret in the body gets a token instead of 401; a wrong secret for a client that has not yet had a token is still refused.',
    install: (app) => {
      const store = capture(app, 'store');
      const authenticated = new Set<string>();
      editTokenParameters(app, (params) => {
        const { client_id: id, client_secret: secret } = params;
        if (id === undefined || secret === undefined || !authenticated.has(id)) return params;
        const stored = store().client(id)?.secret;
        return stored !== undefined && secret !== stored ? { ...params, client_secret: stored } : params;
      });
      editReplies(app, ['token'], (reply, exchange) => {
        const id = reply.status === 200 ? tokenRequestOf(exchange).client_id : undefined;
        if (id !== undefined) authenticated.add(id);
        return reply;
      });
    },
  },
  {
    id: 'ho16-client-secret-jwt-accepted',
    clause: 'token.observed.client-assertion',
    level: 'observed',
    bug: "The client assertion's check extended to client_secret_jwt (OpenID Connect Core 9: an HS256 assertion MAC'd with the client's secret) for clients that have a secret, which the tenant does not offer (its discovery lists client_secret_basic, client_secret_post and private_key_jwt): an HS256 assertion of the global client keyed with its own secret gets a token instead of 401 invalid_client; one keyed with another secret is still refused.",
    install: (app) =>
      app.override('assertions', (assertions, built) => ({
        async verify(assertion, clientId, host): Promise<AssertionCheck> {
          const check = await assertions.verify(assertion, clientId, host);
          const decoded = check.ok ? undefined : decodeJws(assertion);
          if (!decoded || decoded.header.alg !== 'HS256') return check;
          const { iss, sub, aud, exp, jti } = decoded.payload;
          const client =
            typeof iss === 'string' && iss === sub && (clientId === undefined || clientId === iss) ? built.store!.client(iss) : undefined;
          if (!client?.secret) return check;
          try {
            await compactVerify(assertion, new TextEncoder().encode(client.secret), { algorithms: ['HS256'] });
          } catch {
            return check;
          }
          const addressed = audiencesOf(aud).some((value) => typeof value === 'string' && built.tenant!.identityForIssuer(value, host));
          const fresh = typeof exp === 'number' && exp * 1000 > built.clock!.now();
          return addressed && fresh && typeof jti === 'string' && jti !== '' ? { ok: true, client } : check;
        },
      })),
  },
  {
    id: 'ho16-jwks-chain-repeats-root',
    clause: 'token.observed.jwks',
    level: 'observed',
    bug: "The JWKS's x5c built by a chain helper that appends each certificate's issuer until it reaches a self-signed one, and counts the self-signed signing certificate as its own issuer once: every key's x5c holds the same certificate twice instead of the one self-signed certificate; kid, n, e and x5t are as before.",
    install: (app) =>
      editReplies(
        app,
        ['jwks'],
        editOk((body) =>
          Array.isArray(body.keys)
            ? {
                ...body,
                keys: body.keys.map((key: Fields) => {
                  const chain: unknown = key.x5c;
                  return Array.isArray(chain) && chain.length === 1 ? { ...key, x5c: [chain[0] as unknown, chain[0] as unknown] } : key;
                }),
              }
            : body,
        ),
      ),
  },
  {
    id: 'ho16-discovery-token-endpoint-from-spec',
    clause: 'token.observed.discovery',
    level: 'observed',
    bug: `The discovery document's token_endpoint copied from the OpenAPI description's client-credentials flow (tokenUrl, "${SPEC_TOKEN_URL}", the spec's example host) when the document was generated from it: token_endpoint is that URL whatever host the document is fetched from, instead of its token endpoint on that host; issuer and jwks_uri are as before.`,
    install: (app) =>
      editReplies(
        app,
        ['discovery'],
        editOk((body) => ('token_endpoint' in body ? { ...body, token_endpoint: SPEC_TOKEN_URL } : body)),
      ),
  },
]);
