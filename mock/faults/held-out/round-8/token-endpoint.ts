// The token endpoint and what it issues: parameter names read without case or with a "[]" suffix,
// an audience split as a list, secrets compared as the bytes their base64 decodes to, granted
// scopes kept one per resource, the answer's access_token written as a header value, API tokens
// signed HS256 with the client's secret; and the observed rule: the JWKS keys written as a map by
// kid. Each changes the answer to one near miss, or one member of one answer; the rest is answered
// as before.
import { SignJWT, decodeJwt, decodeProtectedHeader, type JWTHeaderParameters } from 'jose';
import { capture } from '../../support/captured.ts';
import { editReplies } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { editTokenParameters } from '../support/token-parameters.ts';
import { readParameterNamesAs } from './support/token-parameter-names.ts';

/** The algorithm of the slip's per-application setting, meant for the application's ID tokens. */
const CLIENT_ALG = 'HS256';

/** The resource a scope names (action:resource). */
const resourceOf = (scope: string) => scope.slice(scope.indexOf(':') + 1);

export const tokenEndpointFaults = heldOutFamily([
  {
    id: 'ho8-token-parameter-names-case-folded',
    clause: 'token.endpoint.grant-type',
    level: 'contract',
    bug: 'Token request parameters read through a case-insensitive parameter map (names lower-cased as HTTP header names are): a request with GRANT_TYPE=client_credentials and no grant_type gets a token instead of being refused; GRANT_TYPE=password is still refused.',
    install: (app) => readParameterNamesAs(app, (name) => name.toLowerCase()),
  },
  {
    id: 'ho8-token-bracketed-parameter-names',
    clause: 'token.endpoint.client-id',
    level: 'contract',
    bug: 'The form parsed by a qs-style parser that reads "name[]" as the list "name" and a list of one as its value: a request with client_id[]=<the client\'s id> and no client_id gets a token instead of being refused; client_id[]=<another id> is still refused.',
    install: (app) => readParameterNamesAs(app, (name) => (name.endsWith('[]') ? name.slice(0, -2) : undefined)),
  },
  {
    id: 'ho8-token-audience-split-as-list',
    clause: 'token.endpoint.audience',
    level: 'contract',
    bug: 'The audience parameter split on spaces as scope is, and the first item that names an API taken: a request for "https://<tenant>/api/v2/ https://other.example/", which names no API, gets a management token instead of being refused; "https://other.example/ https://another.example/" is still refused.',
    install: (app) => {
      const tenant = capture(app, 'tenant');
      editTokenParameters(app, (params) => {
        if (!params.audience?.includes(' ')) return params;
        const named = params.audience
          .split(' ')
          .find((item) => tenant().identityForAudience(item) !== undefined || tenant().api(item) !== undefined);
        return named === undefined ? params : { ...params, audience: named };
      });
    },
  },
  {
    id: 'ho8-token-secret-compared-as-base64',
    clause: 'token.endpoint.wrong-secret',
    level: 'contract',
    bug: 'The client secret compared as the bytes Buffer.from(secret, "base64") decodes (the secrets were made as base64 of random bytes), and that decoder skips characters outside its alphabet: the client\'s secret with a "." inserted gets a token instead of 401; the secret with a letter changed is still refused.',
    install: (app) => {
      const store = capture(app, 'store');
      editTokenParameters(app, (params) => {
        const stored = params.client_id === undefined ? undefined : store().client(params.client_id)?.secret;
        const sent = params.client_secret;
        if (stored === undefined || sent === undefined || sent === stored) return params;
        return Buffer.from(sent, 'base64').equals(Buffer.from(stored, 'base64')) ? { ...params, client_secret: stored } : params;
      });
    },
  },
  {
    id: 'ho8-token-scopes-keyed-by-resource',
    clause: 'token.scopes',
    level: 'contract',
    bug: 'The granted scopes collected into a Map keyed by their resource (to merge grants), so of two scopes on one resource the later replaces the earlier: the global client, granted update:event_deliveries and read:event_deliveries, gets tokens carrying only read:event_deliveries, and its redeliveries are refused 403 instead of 202; scopes on distinct resources are all carried.',
    install: (app) =>
      app.override('issuer', (issuer) => ({
        issue: (client, scopes, target) =>
          issuer.issue(client, [...new Map(scopes.map((scope) => [resourceOf(scope), scope])).values()], target),
      })),
  },
  {
    id: 'ho8-token-answer-access-token-prefixed',
    clause: 'token.endpoint',
    level: 'contract',
    bug: 'The answer\'s access_token filled from the helper that formats the Authorization header value: every access_token is "Bearer eyJ...", which is not a JWT (and a client that sends it gets 401), instead of the token itself; token_type, expires_in and scope are unchanged.',
    install: (app) =>
      editReplies(app, ['token'], (reply) => {
        const body = reply.body as { access_token?: unknown } | undefined;
        return reply.status === 200 && typeof body?.access_token === 'string'
          ? { ...reply, body: { ...body, access_token: `Bearer ${body.access_token}` } }
          : reply;
      }),
  },
  {
    id: 'ho8-token-signed-hs256-with-client-secret',
    clause: 'auth.schemes',
    level: 'contract',
    bug: `The application's JSON Web Token signature setting (${CLIENT_ALG}, keyed with its client secret), meant for its ID tokens, applied to its access tokens: every token issued to a client with a secret is signed ${CLIENT_ALG}, and the management interface, which verifies the tenant's RS256 keys, answers it 401 instead of accepting it; clients without a secret still get RS256 tokens.`,
    install: (app) =>
      app.override('issuer', (issuer) => ({
        async issue(client, scopes, target) {
          const issued = await issuer.issue(client, scopes, target);
          if (client.secret === undefined) return issued;
          const header = decodeProtectedHeader(issued.accessToken) as JWTHeaderParameters;
          const accessToken = await new SignJWT(decodeJwt(issued.accessToken))
            .setProtectedHeader({ ...header, alg: CLIENT_ALG })
            .sign(new TextEncoder().encode(client.secret));
          return { ...issued, accessToken };
        },
      })),
  },
  {
    id: 'ho8-jwks-keys-as-map',
    clause: 'token.observed.jwks',
    level: 'observed',
    bug: "The JWKS written from the key store's lookup map (kid to key) instead of its list: keys is an object keyed by kid instead of an array, so a JOSE client finds no key to verify the tokens with; each key itself is unchanged.",
    install: (app) =>
      editReplies(app, ['jwks'], (reply) => {
        const body = reply.body as { keys?: Array<Record<string, unknown>> } | undefined;
        return reply.status === 200 && Array.isArray(body?.keys)
          ? { ...reply, body: { ...body, keys: Object.fromEntries(body.keys.map((key) => [String(key.kid), key])) } }
          : reply;
      }),
  },
]);
