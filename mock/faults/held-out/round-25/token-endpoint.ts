// The token endpoint: JSON bodies passed through camelcase-keys before a DTO reads them (clientId
// taken for client_id), the audience unquoted once more by a Python endpoint, a secret compared with
// the stored one cut to the given length (a Go attempt at hiding the length from timing); and the
// observed rules: errors written as ory/fosite writes them (error_hint and status_code beside the
// two members), an assertion's lifetime counted in whole minutes, and the scope member left out
// where RFC 6749 5.1 makes it optional. Each changes the answer to one near miss; other requests
// are answered as before.
import { decodeJws } from '../../../auth/bearer.ts';
import { tokenDescriptions } from '../../../errors.ts';
import type { Exchange } from '../../../exchange.ts';
import { isFormMediaType, isJsonMediaType } from '../../../stages/json-body.ts';
import { capture } from '../../support/captured.ts';
import { editReplies, editRequests } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { editTokenParameters } from '../support/token-parameters.ts';

type Fields = Record<string, unknown>;
const isObject = (value: unknown): value is Fields => value !== null && typeof value === 'object' && !Array.isArray(value);
/** The camelCase names camelcase-keys gives the parameters, and the DTO's snake_case ones. */
const CAMEL_NAMES: Record<string, string> = {
  grantType: 'grant_type',
  clientId: 'client_id',
  clientSecret: 'client_secret',
  clientAssertion: 'client_assertion',
  clientAssertionType: 'client_assertion_type',
};
/** The assertion lifetime the tenant allows, as the check counts it: in whole minutes. */
const MAX_ASSERTION_MINUTES = 5;
/** fosite's hints, by error code (what its ErrorHint adds to the RFC 6749 answer). */
const FOSITE_HINTS: Record<string, string> = {
  invalid_client: 'The requested OAuth 2.0 Client does not exist or the client authentication failed.',
  invalid_request: 'Make sure that the various parameters are correct.',
  unsupported_grant_type: 'The client is not allowed to request a token using this grant type.',
  access_denied: 'The resource owner or authorization server denied the request.',
};

/** The token request's scope parameter (form or JSON), when it is given once as a string. */
function requestedScope(exchange: Exchange): string | undefined {
  const text = exchange.body.toString('utf8');
  const contentType = exchange.headers['content-type'];
  if (isFormMediaType(contentType)) {
    const values = new URLSearchParams(text).getAll('scope');
    return values.length === 1 ? values[0] : undefined;
  }
  if (!isJsonMediaType(contentType)) return undefined;
  try {
    const body: unknown = JSON.parse(text);
    return isObject(body) && typeof body.scope === 'string' ? body.scope : undefined;
  } catch {
    return undefined;
  }
}

const scopeSet = (scope: string) => [...new Set(scope.split(' ').filter((s) => s !== ''))].sort().join(' ');

export const tokenEndpointFaults = heldOutFamily([
  {
    id: 'ho25-client-id-camelcase-keys',
    clause: 'token.endpoint.client-id',
    level: 'contract',
    bug: 'A NestJS token endpoint whose global interceptor passes every JSON body through camelcase-keys (the house style for DTOs) before class-transformer builds the DTO from clientId, clientSecret and grantType, so that a body sent in camelCase binds as well: a JSON request with "clientId": "<the global client\'s id>" and no client_id gets a token instead of being refused for a missing client_id; a clientId naming no client is still refused.',
    install: (app) =>
      editRequests(app, 'token', (exchange) => {
        if (!isJsonMediaType(exchange.headers['content-type'])) return exchange;
        let body: unknown;
        try {
          body = JSON.parse(exchange.body.toString('utf8'));
        } catch {
          return exchange;
        }
        if (!isObject(body)) return exchange;
        const renamed: Fields = { ...body };
        let changed = false;
        for (const [camel, snake] of Object.entries(CAMEL_NAMES)) {
          if (renamed[camel] === undefined || renamed[snake] !== undefined) continue;
          renamed[snake] = renamed[camel];
          delete renamed[camel];
          changed = true;
        }
        return changed ? { ...exchange, body: Buffer.from(JSON.stringify(renamed), 'utf8') } : exchange;
      }),
  },
  {
    id: 'ho25-audience-unquoted-again',
    clause: 'token.endpoint.audience',
    level: 'contract',
    bug: 'A Python token endpoint that passes the audience through urllib.parse.unquote() before comparing it with the APIs\' identifiers (a fix for one client that sent it encoded twice), after the form parser has decoded it once: audience "https://<tenant>/api%2Fv2/" (naming no API of the tenant) gets a management token instead of 403; "https://<tenant>/api%2Fv3/" is still refused.',
    install: (app) =>
      editTokenParameters(app, (params) => {
        const { audience } = params;
        if (audience === undefined || !/%[0-9A-Fa-f]{2}/.test(audience)) return params;
        let unquoted: string;
        try {
          unquoted = decodeURIComponent(audience);
        } catch {
          return params;
        }
        return unquoted === audience ? params : { ...params, audience: unquoted };
      }),
  },
  {
    id: 'ho25-secret-stored-cut-to-given-length',
    clause: 'token.endpoint.wrong-secret',
    level: 'contract',
    bug: "A Go token endpoint comparing secrets with subtle.ConstantTimeCompare([]byte(stored[:min(len(stored), len(given))]), []byte(given)), the stored secret cut to the given one's length so that the comparison's time would not reveal the stored length: the client's secret without its last character (or its first eight characters) gets a token instead of 401 invalid_client; the secret with its last character changed is still refused.",
    install: (app) => {
      const store = capture(app, 'store');
      editTokenParameters(app, (params) => {
        const { client_id: clientId, client_secret: given } = params;
        const stored = clientId === undefined ? undefined : store().client(clientId)?.secret;
        if (stored === undefined || !given || given.length >= stored.length || !stored.startsWith(given)) return params;
        return { ...params, client_secret: stored };
      });
    },
  },
  {
    id: 'ho25-token-error-fosite-members',
    clause: 'token.observed.errors',
    level: 'observed',
    bug: 'Token errors written by an authorization server on ory/fosite, whose error JSON carries error_hint and status_code beside error and error_description: a wrong secret is answered 401 {"error": "invalid_client", "error_description": ..., "error_hint": "The requested OAuth 2.0 Client does not exist or the client authentication failed.", "status_code": 401} instead of {error, error_description}; the status and the two members are as before.',
    install: (app) =>
      editReplies(app, ['token'], (reply) => {
        if (reply.status < 400 || !isObject(reply.body) || typeof reply.body.error !== 'string') return reply;
        const hint = FOSITE_HINTS[reply.body.error] ?? 'Make sure that the various parameters are correct.';
        return { ...reply, body: { ...reply.body, error_hint: hint, status_code: reply.status } };
      }),
  },
  {
    id: 'ho25-assertion-lifetime-whole-minutes',
    clause: 'token.observed.client-assertion',
    level: 'observed',
    bug: `A Ruby token endpoint that checks a client assertion's lifetime as (exp - iat) / 60 > ${MAX_ASSERTION_MINUTES}, Integer division that drops the seconds: an otherwise valid assertion living 350 seconds (5 minutes 50) gets a token instead of 401 invalid_client; one living 360 seconds is still refused.`,
    install: (app) => {
      const store = capture(app, 'store');
      app.override('assertions', (assertions) => {
        const used = new Set<string>();
        return {
          async verify(assertion, clientId, host) {
            const check = await assertions.verify(assertion, clientId, host);
            // The lifetime is checked after the signature, the audience and the times: those passed.
            if (check.ok || check.description !== tokenDescriptions.assertion.lifetime) return check;
            const claims = decodeJws(assertion)?.payload;
            const { iss, exp, iat, jti } = claims ?? {};
            if (typeof iss !== 'string' || typeof exp !== 'number' || typeof iat !== 'number') return check;
            if (Math.trunc((exp - iat) / 60) > MAX_ASSERTION_MINUTES) return check;
            if (typeof jti !== 'string' || jti === '') return { ok: false, description: tokenDescriptions.assertion.jti };
            if (used.has(`${iss}\n${jti}`)) return check;
            used.add(`${iss}\n${jti}`);
            const client = store().client(iss);
            return client ? { ok: true, client } : check;
          },
        };
      });
    },
  },
  {
    id: 'ho25-scope-omitted-when-as-requested',
    clause: 'token.observed.response',
    level: 'observed',
    bug: 'A token endpoint written from RFC 6749 section 5.1 to the letter ("scope: OPTIONAL, if identical to the scope requested by the client"), which leaves the member out whenever the token has exactly the scopes the request named: a request with scope="update:event_deliveries read:flows_vault_connections" is answered without scope instead of with it; a request without a scope parameter is answered with scope as before.',
    install: (app) =>
      editReplies(app, ['token'], (reply, exchange) => {
        if (reply.status !== 200 || !isObject(reply.body) || typeof reply.body.scope !== 'string') return reply;
        const requested = requestedScope(exchange);
        if (requested === undefined || scopeSet(requested) === '' || scopeSet(requested) !== scopeSet(reply.body.scope)) return reply;
        const { scope: _identical, ...body } = reply.body;
        return { ...reply, body };
      }),
  },
]);
