// The token endpoint across requests: answers kept per client and audience (the scope asked for
// left out of the key), a grant handler and a grant lookup memoised per client, and a client
// assertion's jti kept in a single slot per client. A client's first request is judged as before.
import type { FaultHooks } from '../../../app.ts';
import { decodeJws } from '../../../auth/bearer.ts';
import { tokenDescriptions } from '../../../errors.ts';
import type { Exchange, Reply } from '../../../exchange.ts';
import { isFormMediaType, isJsonMediaType } from '../../../stages/json-body.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { editTokenParameters } from '../support/token-parameters.ts';

const GRANT_TYPE = 'client_credentials';
const OK = 200;

/** The string parameters of a token request's body (form or JSON); empty for another body. */
function bodyParameters(exchange: Exchange): Record<string, string> {
  const text = exchange.body.toString('utf8');
  const contentType = exchange.headers['content-type'];
  if (isFormMediaType(contentType)) return Object.fromEntries(new URLSearchParams(text));
  if (!isJsonMediaType(contentType)) return {};
  try {
    const value: unknown = JSON.parse(text);
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return {};
    return Object.fromEntries(Object.entries(value).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
  } catch {
    return {};
  }
}

/** Calls `issued` with a token request's body parameters when it was answered with a token. */
function onIssued(app: FaultHooks, issued: (params: Record<string, string>, reply: Reply) => Reply): void {
  app.wrapRoute('token', (next) => async (exchange) => {
    const reply = await next(exchange);
    return reply.status === OK ? issued(bodyParameters(exchange), reply) : reply;
  });
}

export const tokenEndpointFaults = heldOutFamily([
  {
    id: 'ho42-lru-token-per-client-audience',
    clause: 'token.scopes',
    level: 'contract',
    bug: "An Express token endpoint that hands a client its still-valid token again from an lru-cache keyed by `${client_id}:${audience}` (to spare the HSM a signature), looked up after the secret check, the scope parameter left out of the key: after a client asked for a token narrowed to one scope, its plain request (no scope) is answered that narrow token and scope instead of one carrying its granted scopes (and the other way round); its first request, and another client's, get their own token, and a wrong secret is still refused 401.",
    install: (app) => {
      const kept = new Map<string, Reply>();
      onIssued(app, (params, reply) => {
        if (params.client_id === undefined) return reply;
        const key = `${params.client_id}:${params.audience ?? ''}`;
        const earlier = kept.get(key);
        if (earlier) return earlier;
        kept.set(key, reply);
        return reply;
      });
    },
  },
  {
    id: 'ho42-grant-handler-memoised-per-client',
    clause: 'token.endpoint.grant-type',
    level: 'contract',
    bug: `A Spring token endpoint that memoises, per client_id, the grant handler its AuthenticationConverter chose for the client's first successful request (a ConcurrentHashMap filled on success, to skip the converter chain) and, on a hit, hands the request to that handler without reading grant_type again: once a client has had a token, its request with grant_type "password" (or "CLIENT_CREDENTIALS") and its own secret is issued a token (200) instead of 400 unsupported_grant_type; before its first token such a request is refused, and another client's still is.`,
    install: (app) => {
      const served = new Set<string>();
      editTokenParameters(app, (params) =>
        params.client_id !== undefined &&
        served.has(params.client_id) &&
        params.grant_type !== undefined &&
        params.grant_type !== GRANT_TYPE
          ? { ...params, grant_type: GRANT_TYPE }
          : params,
      );
      onIssued(app, (params, reply) => {
        if (params.client_id !== undefined) served.add(params.client_id);
        return reply;
      });
    },
  },
  {
    id: 'ho42-grant-lookup-memoised-per-client',
    clause: 'token.endpoint.audience',
    level: 'contract',
    bug: "A NestJS token endpoint whose ClientGrantsService.findFor(clientId, audience) is decorated with a @Cacheable-style interceptor keyed by the first argument only (the decorator's default key), so a client's later requests get the grant found for its first: once the global client has had a management token, its request for https://reports-api.example.com/ (an API it holds no grant for) or for the management audience without its trailing slash is issued a management token (200) instead of 403 access_denied; before its first token both are refused 403, and a wrong secret is still refused 401.",
    install: (app) => {
      const firstAudience = new Map<string, string>();
      editTokenParameters(app, (params) => {
        const remembered = params.client_id === undefined ? undefined : firstAudience.get(params.client_id);
        return remembered !== undefined && params.audience !== undefined && params.audience !== remembered
          ? { ...params, audience: remembered }
          : params;
      });
      onIssued(app, (params, reply) => {
        if (params.client_id !== undefined && params.audience !== undefined && !firstAudience.has(params.client_id))
          firstAudience.set(params.client_id, params.audience);
        return reply;
      });
    },
  },
  {
    id: 'ho42-redis-last-jti-per-client',
    clause: 'token.observed.client-assertion',
    level: 'observed',
    bug: `A token endpoint that guards against replayed client assertions with one Redis string per client (SET assertion:jti:<client_id> <jti> EX 300) and refuses an assertion whose jti equals the one stored, where a set of every jti (SADD, or one key per jti) was needed: an assertion sent again right away is refused 401, but once the client has used another assertion, the first one is accepted again (200) instead of 401 invalid_client; assertions never used are accepted as before.`,
    install: (app) =>
      app.override('assertions', (assertions, built) => {
        const last = new Map<string, string>();
        return {
          async verify(assertion, clientId, host) {
            const check = await assertions.verify(assertion, clientId, host);
            const { iss, jti } = decodeJws(assertion)?.payload ?? {};
            if (typeof iss !== 'string' || typeof jti !== 'string') return check;
            if (check.ok) {
              last.set(iss, jti);
              return check;
            }
            const client = built.store?.client(iss);
            if (check.description !== tokenDescriptions.assertion.replayed || last.get(iss) === jti || !client) return check;
            last.set(iss, jti);
            return { ok: true, client };
          },
        };
      }),
  },
]);
