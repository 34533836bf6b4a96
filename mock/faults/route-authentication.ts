// What a route does with the credential before (or instead of) the verifier (spec 5, 7): a gateway
// that checks only its shape, a parser that takes any scheme, a route that refuses the token flow
// the spec allows, and checks run in the wrong order.
import { observed, type OperationKey } from '../../specs/index.ts';
import type { TokenIssuer } from '../auth/issuer.ts';
import { bearerToken, decodeJws } from '../auth/bearer.ts';
import type { Clock } from '../clock.ts';
import { Refusal } from '../refusal.ts';
import { validatePath } from '../stages/validate.ts';
import type { Store } from '../store.ts';
import { faultFamily } from './fault.ts';
import { capture, captureAll } from './support/captured.ts';
import { editReplies, editRequests, replacing } from './support/route-edits.ts';

const BEARER_SHAPE = /^Bearer +\S+$/i;
const SCHEME_AND_CREDENTIAL = /^(\S+) +(\S+)$/;
const VAULT_SCOPE = observed.operations.vault.scope.value;
const UNAUTHORIZED = 401;
const OPERATIONS: readonly OperationKey[] = ['redeliver', 'sso-ticket', 'vault'];

/** A token of a global client that may read connections; renewed at half its lifetime. */
async function serviceCredential(issuer: TokenIssuer, store: Store, clock: Clock): Promise<{ authorization: string; renewAt: number }> {
  const client = store.clients().find((c) => c.global && c.scopes.includes(VAULT_SCOPE));
  if (!client) throw new Error(`the fixtures have no global client with ${VAULT_SCOPE}`);
  const token = await issuer.issue(client, [VAULT_SCOPE]);
  return { authorization: `Bearer ${token.accessToken}`, renewAt: clock.now() + (token.expiresIn * 1000) / 2 };
}

export const routeAuthenticationFaults = faultFamily([
  {
    id: 'vault-accepts-any-bearer-token',
    clause: 'auth.bearer.required',
    bug: 'A gateway in front of the vault read that checks only the credential\'s shape and forwards with its own service token: any "Bearer <anything>" (forged, tampered, expired or not a JWT) is accepted there; a missing or non-Bearer credential is still refused.',
    install(app) {
      const issuer = capture(app, 'issuer');
      const store = capture(app, 'store');
      const clock = capture(app, 'clock');
      let service: { authorization: string; renewAt: number } | undefined;
      editRequests(app, 'vault', async (exchange) => {
        const { authorization } = exchange.headers;
        if (authorization === undefined || !BEARER_SHAPE.test(authorization)) return exchange;
        if (!service || clock().now() >= service.renewAt) service = await serviceCredential(issuer(), store(), clock());
        return { ...exchange, headers: { ...exchange.headers, authorization: service.authorization } };
      });
    },
  },
  {
    id: 'ticket-accepts-any-auth-scheme',
    clause: 'auth.bearer.required',
    bug: 'A credential parser that takes the word after the scheme whatever the scheme: ticket creation accepts a valid token under any Authorization scheme (e.g. "Basic <token>"), not only Bearer.',
    install: (app) =>
      editRequests(app, 'sso-ticket', (exchange) => {
        const match = SCHEME_AND_CREDENTIAL.exec(exchange.headers.authorization ?? '');
        if (!match) return exchange;
        return { ...exchange, headers: { ...exchange.headers, authorization: `Bearer ${match[2]!}` } };
      }),
  },
  {
    id: 'vault-refuses-client-credentials-tokens',
    clause: 'auth.schemes',
    bug: 'A vault read that only takes tokens of a user grant: it refuses tokens of the client-credentials flow with 401 "Invalid token" (so every test that reads a connection fails; the other operations take them).',
    install: (app) =>
      editRequests(app, 'vault', (exchange) => {
        const token = bearerToken(exchange.headers.authorization);
        const grant = token === undefined ? undefined : decodeJws(token)?.payload.gty;
        if (grant !== observed.tokens.gty) return exchange;
        const { authorization: _dropped, ...headers } = exchange.headers;
        return { ...exchange, headers };
      }),
  },
  {
    id: 'validates-path-before-authenticating',
    clause: 'auth.order',
    bug: 'Path parameters validated before authentication: a request with a malformed path id is answered 400 invalid_uri even without a valid token, where authentication (401) comes first.',
    install(app) {
      const components = captureAll(app);
      for (const key of OPERATIONS) {
        editReplies(app, [key], (reply, exchange) => {
          if (reply.status !== UNAUTHORIZED) return reply;
          try {
            validatePath(components(), key, exchange.params);
            return reply;
          } catch (error) {
            if (error instanceof Refusal) return replacing(reply, error.reply);
            throw error;
          }
        });
      }
    },
  },
]);
