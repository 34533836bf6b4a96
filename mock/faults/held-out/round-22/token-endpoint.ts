// The token endpoint and the keys: a chunked request body read as empty by a WSGI server (no
// Content-Length, nothing read), an audience given its missing scheme by a URL helper, client
// credentials taken from the username and password fields, client secrets compared by Java's
// String.hashCode(); and the observed rules: the JWKS certificate chain in base64url, Keycloak's
// error code for bad client credentials, and a client assertion's lifetime checked only when it
// carries iat. Each changes the answer to one near miss; other requests are answered as before.
import { decodeJws } from '../../../auth/bearer.ts';
import { createAssertionVerifier } from '../../../auth/client-assertion.ts';
import { tokenDescriptions } from '../../../errors.ts';
import { observed } from '../../../../specs/index.ts';
import { capture } from '../../support/captured.ts';
import { editReplies, editRequests } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { editTokenParameters } from '../support/token-parameters.ts';

type Fields = Record<string, unknown>;
const isObject = (value: unknown): value is Fields => value !== null && typeof value === 'object' && !Array.isArray(value);
/** Java's String.hashCode(): s[0]*31^(n-1) + ... + s[n-1], in 32-bit arithmetic over UTF-16 units. */
const javaHashCode = (text: string) => {
  let hash = 0;
  for (let i = 0; i < text.length; i++) hash = (Math.imul(hash, 31) + text.charCodeAt(i)) | 0;
  return hash;
};
/** The longest an assertion may live, in milliseconds (observed.tokens.client_assertion). */
const MAX_LIFETIME_MS = observed.tokens.client_assertion.max_lifetime_seconds.value * 1000;
const KEYCLOAK_DESCRIPTION = 'Invalid client or Invalid client credentials';

export const tokenEndpointFaults = heldOutFamily([
  {
    id: 'ho22-token-chunked-body-wsgi',
    clause: 'token.endpoint',
    level: 'contract',
    bug: 'The token endpoint served by a WSGI application that reads CONTENT_LENGTH bytes of wsgi.input, as PEP 3333 has it, behind a server that does not de-chunk: a valid form request sent with Transfer-Encoding: chunked (no Content-Length) is read as an empty body and refused 400 (grant_type missing) instead of issuing a token; the same request with a Content-Length still gets one.',
    install: (app) =>
      editRequests(app, 'token', (exchange) => {
        const encoding = String(exchange.headers['transfer-encoding'] ?? '').toLowerCase();
        return encoding.includes('chunked') && exchange.headers['content-length'] === undefined
          ? { ...exchange, body: Buffer.alloc(0) }
          : exchange;
      }),
  },
  {
    id: 'ho22-audience-scheme-added',
    clause: 'token.endpoint.audience',
    level: 'contract',
    bug: 'The audience passed through a Go helper, ensureScheme(u), that prefixes "https://" to a value without "://" so that configuration written as a host works: "<tenant host>/api/v2/", which names no API, gets a management token instead of 403; "<tenant host>/api/v3/" is still refused.',
    install: (app) =>
      editTokenParameters(app, (params) =>
        typeof params.audience === 'string' && params.audience !== '' && !params.audience.includes('://')
          ? { ...params, audience: `https://${params.audience}` }
          : params,
      ),
  },
  {
    id: 'ho22-client-from-username-password',
    clause: 'token.endpoint.client-id',
    level: 'contract',
    bug: "Client credentials read by the extractor the password grant shares, which falls back to the username and password fields when client_id and client_secret are absent: a request naming no client_id, with the global client's id as username and its secret as password, gets a token instead of 400; the same with a wrong password is refused 401 instead of 400.",
    install: (app) =>
      editTokenParameters(app, (params) =>
        params.client_id === undefined &&
        params.client_secret === undefined &&
        typeof params.username === 'string' &&
        typeof params.password === 'string'
          ? { ...params, client_id: params.username, client_secret: params.password }
          : params,
      ),
  },
  {
    id: 'ho22-secret-java-hashcode',
    clause: 'token.endpoint.wrong-secret',
    level: 'contract',
    bug: 'Client secrets compared by their String.hashCode() (a Kotlin service that keeps only the hash codes of the secrets it loads, taking the int for a digest), and Java\'s hash is unchanged when two neighbouring characters change by +1 and -31: the global client\'s secret with its "MX" written "N9" (or its "Dd" written "EE") gets a token instead of 401 invalid_client; the secret with one character changed is still refused.',
    install: (app) => {
      const store = capture(app, 'store');
      editTokenParameters(app, (params) => {
        const client = typeof params.client_id === 'string' ? store().client(params.client_id) : undefined;
        const sent = params.client_secret;
        if (client?.secret === undefined || typeof sent !== 'string' || sent === client.secret) return params;
        return javaHashCode(sent) === javaHashCode(client.secret) ? { ...params, client_secret: client.secret } : params;
      });
    },
  },
  {
    id: 'ho22-jwks-x5c-base64url',
    clause: 'token.observed.jwks',
    level: 'observed',
    bug: 'The JWKS written by a Rust service that encodes every binary member with the same engine, base64::URL_SAFE_NO_PAD, x5c included, where RFC 7517 4.7 has x5c in standard base64: the certificate reads with "-" and "_" for "+" and "/" and without its "=" padding; n, e, kid and x5t are as before.',
    install: (app) =>
      editReplies(app, ['jwks'], (reply) => {
        if (reply.status !== 200 || !isObject(reply.body) || !Array.isArray(reply.body.keys)) return reply;
        const keys = reply.body.keys.map((key: unknown) =>
          isObject(key) && Array.isArray(key.x5c)
            ? {
                ...key,
                x5c: key.x5c.map((cert: unknown) => (typeof cert === 'string' ? Buffer.from(cert, 'base64').toString('base64url') : cert)),
              }
            : key,
        );
        return { ...reply, body: { ...reply.body, keys } };
      }),
  },
  {
    id: 'ho22-invalid-client-keycloak-code',
    clause: 'token.observed.errors',
    level: 'observed',
    bug: `Bad client credentials answered as Keycloak answers them: 401 {"error": "unauthorized_client", "error_description": "${KEYCLOAK_DESCRIPTION}"} instead of invalid_client "Client authentication failed"; the other token errors are as before.`,
    install: (app) =>
      editReplies(app, ['token'], (reply) =>
        reply.status === 401 && isObject(reply.body) && reply.body.error === 'invalid_client'
          ? { ...reply, body: { error: 'unauthorized_client', error_description: KEYCLOAK_DESCRIPTION } }
          : reply,
      ),
  },
  {
    id: 'ho22-assertion-lifetime-needs-iat',
    clause: 'token.observed.client-assertion',
    level: 'observed',
    bug: "A client assertion's lifetime measured as exp - iat and skipped when iat is absent (a check written against the claims the SDKs send): an assertion without iat that expires in an hour is accepted instead of 401 invalid_client; the same assertion with iat now is still refused.",
    install: (app) =>
      app.override('assertions', (assertions, built) => {
        let shiftedTo: number | undefined;
        const lenient = createAssertionVerifier({
          store: built.store!,
          tenant: built.tenant!,
          clock: { now: () => shiftedTo ?? built.clock!.now() },
        });
        return {
          async verify(assertion, clientId, host) {
            const checked = await assertions.verify(assertion, clientId, host);
            if (checked.ok || checked.description !== tokenDescriptions.assertion.lifetime) return checked;
            const payload = decodeJws(assertion)?.payload;
            if (!payload || payload.iat !== undefined || typeof payload.exp !== 'number') return checked;
            // Judged as at the moment the assertion was five minutes from expiring: nothing but the lifetime changes.
            shiftedTo = payload.exp * 1000 - MAX_LIFETIME_MS;
            try {
              return await lenient.verify(assertion, clientId, host);
            } finally {
              shiftedTo = undefined;
            }
          },
        };
      }),
  },
]);
