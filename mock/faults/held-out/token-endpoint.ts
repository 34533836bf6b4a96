// The client-credentials token endpoint: how it compares the secret (trimmed, over a fixed width,
// or by looking the client up by it), what it makes of the Content-Type and of the audience, and
// the shape of its answers. Each lets one near miss through or changes one field; a secret or an
// audience that is plainly wrong is still refused.
import { observed } from '../../../specs/index.ts';
import { capture } from '../support/captured.ts';
import { editReplies, editRequests } from '../support/route-edits.ts';
import { isFormMediaType } from '../../stages/json-body.ts';
import { heldOutFamily } from './held-out-fault.ts';
import { editTokenParameters } from './support/token-parameters.ts';

/** The width of a column sized for client ids (observed client id length), reused for the secret. */
const CLIENT_ID_WIDTH = observed.identifiers.client.length;

/** A Content-Type the endpoint refuses, standing for the one a strict comparison does not recognise. */
const UNRECOGNISED_CONTENT_TYPE = 'application/octet-stream';

/** The RFC 6749 error some servers answer bad client credentials with. */
const INVALID_GRANT = 'invalid_grant';

function isTokenError(body: unknown): body is { error: string; error_description?: string } {
  return body !== null && typeof body === 'object' && typeof (body as { error?: unknown }).error === 'string';
}

export const tokenEndpointFaults = heldOutFamily([
  {
    id: 'ho-token-secret-trimmed',
    clause: 'token.endpoint.wrong-secret',
    level: 'contract',
    bug: "A form binder that trims every parameter: the client's secret with a space or tab at either end gets a token (a secret with any other character changed is still refused).",
    install: (app) =>
      editTokenParameters(app, (params) =>
        params.client_secret !== undefined && params.client_secret.trim() !== params.client_secret
          ? { ...params, client_secret: params.client_secret.trim() }
          : params,
      ),
  },
  {
    id: 'ho-token-secret-compared-over-32-characters',
    clause: 'token.endpoint.wrong-secret',
    level: 'contract',
    bug: `Secrets kept in a column sized for client ids (${CLIENT_ID_WIDTH} characters) and compared with what fits: any secret whose first ${CLIENT_ID_WIDTH} characters are the client's gets a token, its last character changed included (one changed earlier is still refused).`,
    install(app) {
      const store = capture(app, 'store');
      editTokenParameters(app, (params) => {
        const stored = params.client_id === undefined ? undefined : store().client(params.client_id)?.secret;
        const sent = params.client_secret;
        if (stored === undefined || sent === undefined || sent === stored || sent.length < CLIENT_ID_WIDTH) return params;
        return sent.slice(0, CLIENT_ID_WIDTH) === stored.slice(0, CLIENT_ID_WIDTH) ? { ...params, client_secret: stored } : params;
      });
    },
  },
  {
    id: 'ho-token-client-found-by-secret',
    clause: 'token.endpoint.wrong-secret',
    level: 'contract',
    bug: "Clients looked up by their secret, the client_id only used for logging: a request naming one client with another client's secret gets a token (of the client the secret belongs to); a secret no client has is still refused.",
    install(app) {
      const store = capture(app, 'store');
      editTokenParameters(app, (params) => {
        const { client_id: clientId, client_secret: secret } = params;
        if (clientId === undefined || secret === undefined || store().client(clientId)?.secret === secret) return params;
        const owner = store()
          .clients()
          .find((client) => client.secret === secret);
        return owner ? { ...params, client_id: owner.clientId } : params;
      });
    },
  },
  {
    id: 'ho-token-form-with-charset-refused',
    clause: 'token.endpoint',
    level: 'contract',
    bug: 'A token endpoint that compares Content-Type with the exact string application/x-www-form-urlencoded: a form request whose Content-Type carries a parameter (charset=UTF-8, as many HTTP clients send it) is refused with 400 invalid_request.',
    install: (app) =>
      editRequests(app, 'token', (exchange) => {
        const contentType = exchange.headers['content-type'];
        if (!isFormMediaType(contentType) || !contentType?.includes(';')) return exchange;
        return { ...exchange, headers: { ...exchange.headers, 'content-type': UNRECOGNISED_CONTENT_TYPE } };
      }),
  },
  {
    id: 'ho-token-audience-query-dropped',
    clause: 'token.endpoint.audience',
    level: 'contract',
    bug: 'Audiences parsed as URLs and looked up by origin and path, the query and fragment dropped: a token is issued for the management audience with "?x=1" or "#x" added (a different identifier, RFC 7519 compares audiences as strings).',
    install: (app) =>
      editTokenParameters(app, (params) => {
        const audience = params.audience;
        if (audience === undefined || !/[?#]/.test(audience)) return params;
        try {
          const url = new URL(audience);
          return { ...params, audience: `${url.origin}${url.pathname}` };
        } catch {
          return params;
        }
      }),
  },
  {
    id: 'ho-token-expires-in-as-string',
    clause: 'token.observed.response',
    level: 'observed',
    bug: 'A token lifetime read from configuration as text and written out as read: the token response has expires_in "86400", a string, instead of the number 86400.',
    install: (app) =>
      editReplies(app, ['token'], (reply) => {
        const body = reply.body as Record<string, unknown> | undefined;
        return reply.status === 200 && typeof body?.expires_in === 'number'
          ? { ...reply, body: { ...body, expires_in: String(body.expires_in) } }
          : reply;
      }),
  },
  {
    id: 'ho-token-bad-secret-400-invalid-grant',
    clause: 'token.observed.errors',
    level: 'observed',
    bug: `An OAuth library that files bad client credentials under the grant: a wrong secret (or an unknown client) is answered 400 {"error": "${INVALID_GRANT}"} instead of 401 invalid_client.`,
    install: (app) =>
      editReplies(app, ['token'], (reply) =>
        reply.status === 401 && isTokenError(reply.body) && reply.body.error === 'invalid_client'
          ? {
              status: 400,
              headers: Object.fromEntries(Object.entries(reply.headers).filter(([name]) => name !== 'www-authenticate')),
              body: { ...reply.body, error: INVALID_GRANT },
            }
          : reply,
      ),
  },
  {
    id: 'ho-token-grant-type-error-without-description',
    clause: 'token.observed.errors',
    level: 'observed',
    bug: 'The grant_type check left to a library whose errors carry no description: a request with another grant_type, or none, is answered {"error": ...} without error_description.',
    install: (app) =>
      editReplies(app, ['token'], (reply) => {
        if (!isTokenError(reply.body)) return reply;
        const aboutGrantType = reply.body.error === 'unsupported_grant_type' || (reply.body.error_description ?? '').includes('grant_type');
        return aboutGrantType ? { ...reply, body: { error: reply.body.error } } : reply;
      }),
  },
]);
