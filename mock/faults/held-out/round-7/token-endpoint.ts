// The token endpoint and what it issues: a Basic secret overridden by the body's, a secret compared
// by a collator that ignores accents, an audience host's trailing dot dropped, requested scopes
// split on commas; the scope of the answer as a list and the JWKS modulus with a sign byte. Each
// changes the answer to one near miss, or one member of one answer; the rest is answered as before.
import { capture } from '../../support/captured.ts';
import { editReplies, editRequests } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { tokenBodyFields } from '../round-2/support/token-fields.ts';
import { basicCredentialsOf } from '../round-4/support/token-requests.ts';
import { editTokenParameters } from '../support/token-parameters.ts';
import { isFormMediaType } from '../../../stages/json-body.ts';

const TRAILING_DOT_HOST = /^(https?:\/\/[^/]+)\.(\/.*)?$/;

export const tokenEndpointFaults = heldOutFamily([
  {
    id: 'ho7-token-body-secret-overrides-basic',
    clause: 'token.endpoint.wrong-secret',
    level: 'contract',
    bug: "Client authentication reads the body's client_secret first and the Basic header only when the body has none (body ?? basic), where a request using both must be refused: a request whose Basic credentials carry a wrong secret and whose body carries the right one gets a token instead of being refused; a wrong secret in both places is still refused.",
    install: (app) =>
      editRequests(app, 'token', (exchange) => {
        const basic = basicCredentialsOf(exchange.headers.authorization);
        const { client_secret: secret } = tokenBodyFields(exchange);
        if (!basic || secret === undefined || !isFormMediaType(exchange.headers['content-type'])) return exchange;
        const { authorization: _dropped, ...headers } = exchange.headers;
        const form = new URLSearchParams(exchange.body.toString('utf8'));
        form.set('client_id', basic.clientId);
        return { ...exchange, headers, body: Buffer.from(form.toString(), 'utf8') };
      }),
  },
  {
    id: 'ho7-token-secret-collated',
    clause: 'token.endpoint.wrong-secret',
    level: 'contract',
    bug: 'The client secret compared with secret.localeCompare(stored, "en", {sensitivity: "case"}) === 0 (a collator, picked to keep the comparison case-sensitive), which ignores accents: the client\'s secret with its "e" written "é" gets a token instead of 401; the secret with that letter changed to "x" is still refused.',
    install: (app) => {
      const store = capture(app, 'store');
      editTokenParameters(app, (params) => {
        const stored = params.client_id === undefined ? undefined : store().client(params.client_id)?.secret;
        const sent = params.client_secret;
        if (stored === undefined || sent === undefined || sent === stored) return params;
        return sent.localeCompare(stored, 'en', { sensitivity: 'case' }) === 0 ? { ...params, client_secret: stored } : params;
      });
    },
  },
  {
    id: 'ho7-token-audience-trailing-dot-dropped',
    clause: 'token.endpoint.audience',
    level: 'contract',
    bug: 'The audience\'s host normalised as a fully qualified name before the API is looked up, a trailing dot taken off: a request for "https://<tenant>./api/v2/", which names no API, gets a management token instead of being refused; "https://<tenant>.org/api/v2/" is still refused.',
    install: (app) =>
      editTokenParameters(app, (params) => {
        const match = params.audience === undefined ? null : TRAILING_DOT_HOST.exec(params.audience);
        return match ? { ...params, audience: `${match[1]!}${match[2] ?? ''}` } : params;
      }),
  },
  {
    id: 'ho7-token-requested-scopes-split-on-commas',
    clause: 'token.observed.granted-scopes',
    level: 'observed',
    bug: 'The scope parameter split with split(/[ ,]+/) (for clients that send a comma list): a request for "read:flows_vault_connections,update:event_deliveries", one scope the client is not granted, gets a token carrying both scopes instead of 403; "read:flows_vault_connections,delete:users" is still refused.',
    install: (app) =>
      editTokenParameters(app, (params) =>
        params.scope?.includes(',')
          ? {
              ...params,
              scope: params.scope
                .split(/[ ,]+/)
                .filter((s) => s.length > 0)
                .join(' '),
            }
          : params,
      ),
  },
  {
    id: 'ho7-token-answer-scope-as-list',
    clause: 'token.observed.response',
    level: 'observed',
    bug: "The token answer serialises the granted scopes as the array the issuer works with, where the response carries one space-separated string: every answer's scope is a JSON list instead of a string; the token and its claim are unchanged.",
    install: (app) =>
      editReplies(app, ['token'], (reply) => {
        const body = reply.body as { scope?: unknown } | undefined;
        return reply.status === 200 && typeof body?.scope === 'string'
          ? { ...reply, body: { ...body, scope: body.scope.split(' ').filter((s) => s.length > 0) } }
          : reply;
      }),
  },
  {
    id: 'ho7-jwks-modulus-with-sign-byte',
    clause: 'token.observed.jwks',
    level: 'observed',
    bug: 'The JWKS modulus exported from a signed big integer\'s toByteArray(), which prefixes a zero byte when the top bit is set: every published n starts with a 0x00 byte ("AL..." in base64url), which RFC 7518 forbids; e, kid and the key itself are unchanged.',
    install: (app) =>
      editReplies(app, ['jwks'], (reply) => {
        const body = reply.body as { keys?: Array<Record<string, unknown>> } | undefined;
        if (reply.status !== 200 || !Array.isArray(body?.keys)) return reply;
        const keys = body.keys.map((key) => {
          if (typeof key.n !== 'string') return key;
          const n = Buffer.from(key.n, 'base64url');
          return (n[0]! & 0x80) === 0 ? key : { ...key, n: Buffer.concat([Buffer.alloc(1), n]).toString('base64url') };
        });
        return { ...reply, body: { ...body, keys } };
      }),
  },
]);
