// The client-credentials token endpoint and what it issues: an audience with https's default port,
// a grant_type that defaults when absent, a key-only client that takes any secret, a client_id in
// its subject form, a strict parameter schema, GET served from the query, and the answer's and the
// tokens' fields (scope left out, exp in the wrong unit, gty misspelt, the key marked for
// encryption in the JWKS). Each lets one near miss through or changes one field; requests without
// the near miss get what they got.
import { AsyncLocalStorage } from 'node:async_hooks';
import { observed, tokenPath } from '../../../../specs/index.ts';
import { tokenRoute } from '../../../routes/token.ts';
import { FORM_MEDIA_TYPE } from '../../../stages/json-body.ts';
import type { Client } from '../../../store.ts';
import { capture } from '../../support/captured.ts';
import { editReplies, withoutBodyField } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { answeredInstead } from '../support/answers.ts';
import { editTokenParameters } from '../support/token-parameters.ts';
import { handlerOf } from './support/handlers.ts';
import { reissueTokens } from './support/reissue.ts';
import { clientCredentialsOf, TOKEN_PARAMETER_NAMES, tokenBodyFields } from './support/token-fields.ts';

const GRANT_TYPE = 'client_credentials';
const SUFFIX = observed.tokens.subject_suffix;
/** The default port of https, which URL normalisation drops. */
const HTTPS_DEFAULT_PORT = /^(https:\/\/[^/:]+):443(\/.*)$/;
/** The paths the token endpoint answers at. */
const TOKEN_PATHS = [observed.tokens.path, tokenPath];
/** gty written as the grant type is, with an underscore. */
const GTY_AS_GRANT_TYPE = GRANT_TYPE;
const MILLISECONDS = 1000;

export const tokenEndpointFaults = heldOutFamily([
  {
    id: 'ho2-token-audience-default-port-dropped',
    clause: 'token.endpoint.audience',
    level: 'contract',
    bug: "Audiences normalised as URLs before the API is looked up, the scheme's default port dropped: a token is issued for the management audience written with :443 after the host (another identifier); another port is still refused with 403.",
    install: (app) =>
      editTokenParameters(app, (params) => {
        const match = params.audience === undefined ? null : HTTPS_DEFAULT_PORT.exec(params.audience);
        return match ? { ...params, audience: `${match[1]}${match[2]}` } : params;
      }),
  },
  {
    id: 'ho2-token-grant-type-defaulted',
    clause: 'token.endpoint.grant-type',
    level: 'contract',
    bug: `An endpoint that serves one grant and reads grant_type with a default ("grant_type ?? '${GRANT_TYPE}'"): a request without grant_type gets a token; one naming another grant type is still refused with 400.`,
    install: (app) =>
      editTokenParameters(app, (params) => (params.grant_type === undefined ? { ...params, grant_type: GRANT_TYPE } : params)),
  },
  {
    id: 'ho2-token-secret-skipped-for-key-only-client',
    clause: 'token.endpoint.wrong-secret',
    level: 'contract',
    bug: 'A secret check written "if (client.secret && !equal(sent, client.secret)) refuse": a client that authenticates with a key and has no secret gets a token for its client_id with any client_secret at all; a client with a secret still needs its own.',
    install(app) {
      const sentSecret = new AsyncLocalStorage<string | undefined>();
      app.wrapRoute(
        'token',
        (next) => async (exchange) => sentSecret.run(clientCredentialsOf(exchange).clientSecret, () => next(exchange)),
      );
      app.override('store', (store) => {
        const client = (clientId: string): Client | undefined => {
          const found = store.client(clientId);
          const secret = sentSecret.getStore();
          return found && found.secret === undefined && secret ? { ...found, secret } : found;
        };
        return new Proxy(store, {
          get(target, property) {
            if (property === 'client') return client;
            const value: unknown = Reflect.get(target, property);
            return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
          },
        });
      });
    },
  },
  {
    id: 'ho2-token-client-id-in-subject-form',
    clause: 'token.endpoint.client-id',
    level: 'contract',
    bug: `Clients looked up through the helper that maps a token's sub to its client, which strips "${SUFFIX}": a client_id written as the subject ("<client_id>${SUFFIX}"), with the client's secret, gets a token; another suffix is still refused with 401.`,
    install: (app) =>
      editTokenParameters(app, (params) =>
        params.client_id?.endsWith(SUFFIX) ? { ...params, client_id: params.client_id.slice(0, -SUFFIX.length) } : params,
      ),
  },
  {
    id: 'ho2-token-unknown-parameter-refused',
    clause: 'token.endpoint',
    level: 'contract',
    bug: 'Token requests validated with a schema that refuses additional properties: a valid client-credentials request that also carries a parameter the endpoint does not use is answered 400 invalid_request "Unknown parameter" instead of a token (RFC 6749 section 3.2: unrecognised parameters are ignored).',
    install(app) {
      const errors = capture(app, 'errors');
      app.wrapRoute('token', (next) => async (exchange) => {
        const unknown = Object.keys(tokenBodyFields(exchange)).find((name) => !TOKEN_PARAMETER_NAMES.includes(name));
        if (unknown === undefined) return next(exchange);
        const refused = await next({ ...exchange, body: Buffer.alloc(0) });
        return answeredInstead(refused, errors().tokenReply('invalid_request', `Unknown parameter: ${unknown}`));
      });
    },
  },
  {
    id: 'ho2-token-served-on-get',
    clause: 'token.observed.request-rules',
    level: 'observed',
    bug: 'A token route registered for every method that reads its parameters from the query when there is no body: GET /oauth/token?grant_type=client_credentials&client_id=...&client_secret=...&audience=... issues a token (the client secret in a URL) instead of 405.',
    install(app) {
      const issue = handlerOf(app, (components) => tokenRoute(components));
      app.wrapRoute('method-not-allowed', (next) => async (exchange) => {
        if (exchange.method !== 'GET' || !TOKEN_PATHS.includes(exchange.path) || exchange.query === '') return next(exchange);
        const refused = await next(exchange);
        const issued = await issue({
          ...exchange,
          method: 'POST',
          body: Buffer.from(exchange.query, 'utf8'),
          headers: { ...exchange.headers, 'content-type': FORM_MEDIA_TYPE },
        });
        return answeredInstead(refused, issued);
      });
    },
  },
  {
    id: 'ho2-token-answer-without-scope',
    clause: 'token.observed.response',
    level: 'observed',
    bug: 'scope left out of the token answer when the request named none, as RFC 6749 section 5.1 allows when the scope is what was asked: a token request without a scope parameter is answered without the scope field (the token still carries its scopes).',
    install: (app) =>
      editReplies(app, ['token'], (reply, exchange) =>
        reply.status === 200 && tokenBodyFields(exchange).scope === undefined ? withoutBodyField(reply, 'scope') : reply,
      ),
  },
  {
    id: 'ho2-token-exp-lifetime-in-milliseconds',
    clause: 'token.lifetime',
    level: 'observed',
    bug: `exp written as iat plus the lifetime in milliseconds: issued tokens carry exp = iat + ${observed.tokens.expires_in * MILLISECONDS} (they live a thousand days) while the answer still says expires_in ${observed.tokens.expires_in}.`,
    install: (app) =>
      reissueTokens(app, {
        claims: (claims) =>
          typeof claims.iat === 'number' && typeof claims.exp === 'number'
            ? { ...claims, exp: claims.iat + (claims.exp - claims.iat) * MILLISECONDS }
            : claims,
      }),
  },
  {
    id: 'ho2-token-gty-with-underscore',
    clause: 'token.observed.claims',
    level: 'observed',
    bug: `gty written as the grant type is spelt: issued tokens carry gty "${GTY_AS_GRANT_TYPE}" instead of the real service's "${observed.tokens.gty}" (the service still accepts them).`,
    install: (app) => reissueTokens(app, { claims: (claims) => ({ ...claims, gty: GTY_AS_GRANT_TYPE }) }),
  },
  {
    id: 'ho2-jwks-key-marked-for-encryption',
    clause: 'token.observed.jwks',
    level: 'observed',
    bug: 'A signing key made from an encryption key template: the JWKS publishes it with use "enc" instead of "sig", so a client that picks verification keys from the JWKS (as JOSE libraries do) finds none for the tokens it is issued (the service itself still verifies them).',
    install: (app) =>
      editReplies(app, ['jwks'], (reply) => {
        const body = reply.body as { keys?: Array<Record<string, unknown>> } | undefined;
        return Array.isArray(body?.keys) ? { ...reply, body: { ...body, keys: body.keys.map((key) => ({ ...key, use: 'enc' })) } } : reply;
      }),
  },
]);
