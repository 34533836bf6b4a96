// What a route does with the credential before (or instead of) the verifier (spec 5, 7): a gateway
// that checks only its shape, a parser that takes any scheme, a token taken from somewhere else than
// the Authorization header, a route that refuses the token flow the spec allows, and checks run in
// the wrong order.
import { observed, operationKeys, type OperationKey } from '../../specs/index.ts';
import type { TokenIssuer } from '../auth/issuer.ts';
import { bearerToken, decodeJws } from '../auth/bearer.ts';
import type { FaultHooks } from '../app.ts';
import type { Clock } from '../clock.ts';
import type { Exchange } from '../exchange.ts';
import { Refusal } from '../refusal.ts';
import { isFormMediaType } from '../stages/json-body.ts';
import { validateHeaders, validatePath } from '../stages/validate.ts';
import type { Store } from '../store.ts';
import { faultFamily } from './fault.ts';
import { capture, captureAll } from './support/captured.ts';
import { editReplies, editRequests, replacing } from './support/route-edits.ts';

const BEARER_SHAPE = /^Bearer +\S+$/i;
const SCHEME_AND_CREDENTIAL = /^(\S+) +(\S+)$/;
const VAULT_SCOPE = observed.operations.vault.scope.value;
const UNAUTHORIZED = 401;
const FORBIDDEN = 403;
const OPERATIONS: readonly OperationKey[] = operationKeys;

/** A token of a global client that may read connections; renewed at half its lifetime. */
async function serviceCredential(issuer: TokenIssuer, store: Store, clock: Clock): Promise<{ authorization: string; renewAt: number }> {
  const client = store.clients().find((c) => c.global && c.scopes.includes(VAULT_SCOPE));
  if (!client) throw new Error(`the fixtures have no global client with ${VAULT_SCOPE}`);
  const token = await issuer.issue(client, [VAULT_SCOPE]);
  return { authorization: `Bearer ${token.accessToken}`, renewAt: clock.now() + (token.expiresIn * 1000) / 2 };
}

const TOKEN_PARAMETER = 'access_token';
const FORWARDED_AUTHORIZATION = 'x-forwarded-authorization';

/**
 * A route that, finding no Authorization header, takes a bearer token from `elsewhere` in the
 * request (RFC 6750's other two methods, or a header a gateway is trusted to set) and goes on as if
 * the header had carried it.
 */
function tokenTakenFrom(
  elsewhere: (exchange: Exchange) => { token: string; exchange: Exchange } | undefined,
): (app: FaultHooks, key: OperationKey) => void {
  return (app, key) =>
    editRequests(app, key, (exchange) => {
      if (exchange.headers.authorization !== undefined) return exchange;
      const found = elsewhere(exchange);
      return found ? { ...found.exchange, headers: { ...found.exchange.headers, authorization: `Bearer ${found.token}` } } : exchange;
    });
}

const fromQuery = tokenTakenFrom((exchange) => {
  const token = new URLSearchParams(exchange.query).get(TOKEN_PARAMETER);
  return token ? { token, exchange } : undefined;
});

/** As passport-http-bearer reads a form body; the parameter is taken out, so the body checks see the rest. */
const fromFormBody = tokenTakenFrom((exchange) => {
  if (!isFormMediaType(exchange.headers['content-type'])) return undefined;
  const form = new URLSearchParams(exchange.body.toString('utf8'));
  const token = form.get(TOKEN_PARAMETER);
  if (!token) return undefined;
  form.delete(TOKEN_PARAMETER);
  return { token, exchange: { ...exchange, body: Buffer.from(form.toString(), 'utf8') } };
});

const fromForwardedHeader = tokenTakenFrom((exchange) => {
  const token = bearerToken(exchange.headers[FORWARDED_AUTHORIZATION] as string | undefined);
  return token ? { token, exchange } : undefined;
});

/** headers.authorization ?? headers['proxy-authorization'], written for calls that came through a forward proxy. */
const fromProxyAuthorization = tokenTakenFrom((exchange) => {
  const token = bearerToken(exchange.headers['proxy-authorization']);
  return token ? { token, exchange } : undefined;
});

/** A shim for browser WebSocket clients: the token read from the subprotocol list "access_token, <token>", upgrade or not. */
const fromWebSocketProtocol = tokenTakenFrom((exchange) => {
  const offered = String(exchange.headers['sec-websocket-protocol'] ?? '')
    .split(',')
    .map((item) => item.trim());
  const token = offered[0] === TOKEN_PARAMETER ? offered[1] : undefined;
  return token ? { token, exchange } : undefined;
});

/** An application's own header, read where Authorization is absent (req.headers['x-access-token']). */
const fromAccessTokenHeader = tokenTakenFrom((exchange) => {
  const token = exchange.headers['x-access-token'];
  return typeof token === 'string' && token !== '' ? { token, exchange } : undefined;
});

/** The Authorization value split on "," and its first element read, as a field a proxy may have folded into a list. */
function firstOfFoldedList(app: FaultHooks, key: OperationKey): void {
  editRequests(app, key, (exchange) => {
    const value = exchange.headers.authorization;
    return typeof value === 'string' && value.includes(',')
      ? { ...exchange, headers: { ...exchange.headers, authorization: value.split(',')[0]!.trim() } }
      : exchange;
  });
}

export const routeAuthenticationFaults = faultFamily([
  {
    id: 'first-authorization-header-wins',
    clause: 'auth.authorization.single',
    bug: 'A server that reads headers into a map, the first of a repeated one kept: a request with two Authorization headers, a valid one first, is authorized instead of answered 400.',
    install(app) {
      for (const key of operationKeys)
        editRequests(app, key, (exchange) => ({
          ...exchange,
          repeatedHeaders: exchange.repeatedHeaders.filter((h) => h !== 'authorization'),
        }));
    },
  },
  {
    id: 'redeliver-reads-token-from-basic-password',
    clause: 'auth.bearer.required',
    bug: 'Redelivery behind a Basic validator that checks the password as a token, as git hosts take a token in place of a password: "Basic base64(x-access-token:<valid token>)" redelivers instead of 401; a Basic credential whose password is no token is still refused.',
    install: (app) =>
      editRequests(app, 'redeliver', (exchange) => {
        const match = /^Basic +(\S+)$/i.exec(exchange.headers.authorization ?? '');
        if (!match) return exchange;
        const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
        const password = decoded.slice(decoded.indexOf(':') + 1);
        return decoded.includes(':') && decodeJws(password)
          ? { ...exchange, headers: { ...exchange.headers, authorization: `Bearer ${password}` } }
          : exchange;
      }),
  },
  {
    id: 'ticket-bearer-split-on-any-white-space',
    clause: 'auth.bearer.required',
    bug: 'Ticket creation reads the credential with /^Bearer\\s+(\\S+)$/i, and JavaScript\'s \\s takes Unicode white space too: "Bearer\\u00a0<valid token>" (a no-break space, byte 0xA0 read as Latin-1) or a tab after Bearer creates a ticket instead of 401; "Bearer:<valid token>" is still refused.',
    install: (app) =>
      editRequests(app, 'sso-ticket', (exchange) => {
        const match = /^Bearer\s+(\S+)$/i.exec(exchange.headers.authorization ?? '');
        return match ? { ...exchange, headers: { ...exchange.headers, authorization: `Bearer ${match[1]!}` } } : exchange;
      }),
  },
  {
    id: 'vault-takes-dpop-scheme-as-bearer',
    clause: 'auth.bearer.required',
    bug: 'The vault read behind a library with DPoP support switched to "compatibility", which takes a DPoP-scheme token without its proof as a bearer token: "DPoP <valid token>" with no DPoP header reads a connection instead of 401; "MAC <valid token>" is still refused.',
    install: (app) =>
      editRequests(app, 'vault', (exchange) => {
        const match = /^DPoP +(\S+)$/i.exec(exchange.headers.authorization ?? '');
        return match && exchange.headers.dpop === undefined
          ? { ...exchange, headers: { ...exchange.headers, authorization: `Bearer ${match[1]!}` } }
          : exchange;
      }),
  },
  {
    id: 'redeliver-knows-two-spellings-of-bearer',
    clause: 'auth.schemes',
    bug: 'Redelivery compares the scheme with "Bearer" and "bearer" as they are, not case-insensitively: "BEARER <valid token>" (and any other mixed case) is answered 401 instead of redelivering; "Bearer" and "bearer" still work.',
    install: (app) =>
      editRequests(app, 'redeliver', (exchange) => {
        const match = /^(\S+) +(\S+)$/.exec(exchange.headers.authorization ?? '');
        return match && match[1]!.toLowerCase() === 'bearer' && !['Bearer', 'bearer'].includes(match[1]!)
          ? { ...exchange, headers: { ...exchange.headers, authorization: `Unknown ${match[2]!}` } }
          : exchange;
      }),
  },
  {
    id: 'ticket-takes-gnap-scheme-as-bearer',
    clause: 'auth.bearer.required',
    bug: 'Ticket creation behind a resource server that also serves GNAP (RFC 9635) access tokens and checks them as bearer tokens: "GNAP <valid token>" creates a ticket instead of 401; "Digest <valid token>" is still refused.',
    install: (app) =>
      editRequests(app, 'sso-ticket', (exchange) => {
        const match = /^GNAP +(\S+)$/.exec(exchange.headers.authorization ?? '');
        return match ? { ...exchange, headers: { ...exchange.headers, authorization: `Bearer ${match[1]!}` } } : exchange;
      }),
  },
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
    id: 'vault-reads-token-from-query',
    clause: 'auth.bearer.required',
    bug: 'Bearer middleware that also reads an access_token query parameter (RFC 6750 section 2.3) when there is no Authorization header: the vault read accepts a valid token in the query string.',
    install: (app) => fromQuery(app, 'vault'),
  },
  {
    id: 'redeliver-reads-token-from-form-body',
    clause: 'redeliver.errors.401.invalid-token',
    bug: 'Bearer middleware that also reads an access_token form parameter (RFC 6750 section 2.2) when there is no Authorization header: redelivery accepts a valid token in a form-encoded body.',
    install: (app) => fromFormBody(app, 'redeliver'),
  },
  {
    id: 'ticket-reads-token-from-form-body',
    clause: 'auth.bearer.required',
    bug: 'Bearer middleware that takes an access_token form parameter out of the body when there is no Authorization header: ticket creation accepts a valid token in a form-encoded body (and creates a ticket from what is left).',
    install: (app) => fromFormBody(app, 'sso-ticket'),
  },
  {
    id: 'ticket-trusts-x-forwarded-authorization',
    clause: 'errors.401.all-operations',
    bug: "A service that trusts X-Forwarded-Authorization, where the gateway in front of it moves the client's credential: a client that sets that header itself is authenticated by ticket creation without an Authorization header.",
    install: (app) => fromForwardedHeader(app, 'sso-ticket'),
  },
  {
    id: 'vault-reads-proxy-authorization',
    clause: 'errors.401.all-operations',
    bug: "The vault read's credential read as headers.authorization ?? headers['proxy-authorization'] (a fallback for calls that came through a forward proxy): a valid token in Proxy-Authorization, with no Authorization header, reads a connection.",
    install: (app) => fromProxyAuthorization(app, 'vault'),
  },
  {
    id: 'ticket-reads-websocket-subprotocol',
    clause: 'auth.bearer.required',
    bug: 'Ticket creation behind a shim for browser WebSocket clients, which reads the token from "Sec-WebSocket-Protocol: access_token, <token>" when there is no Authorization header, whether or not the request is an upgrade: a plain request carrying a valid token only there creates a ticket.',
    install: (app) => fromWebSocketProtocol(app, 'sso-ticket'),
  },
  {
    id: 'redeliver-reads-x-access-token',
    clause: 'auth.bearer.required',
    bug: "Redelivery's credential read as headers.authorization ?? headers['x-access-token'] (an application's own header, from a tutorial): a valid token in X-Access-Token, with no Authorization header, redelivers.",
    install: (app) => fromAccessTokenHeader(app, 'redeliver'),
  },
  {
    id: 'redeliver-authorization-first-of-list',
    clause: 'redeliver.errors.401.invalid-token',
    bug: 'Redelivery splits the Authorization value on "," and reads its first element, as for a field a proxy folded into a list: "Bearer <valid token>, Bearer x" redelivers.',
    install: (app) => firstOfFoldedList(app, 'redeliver'),
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
  {
    id: 'validates-headers-before-authenticating',
    clause: 'auth.order',
    bug: "A header validator registered before the token middleware (Hono's validator('header') ahead of jwt()): a ticket request with a custom-domain header of the wrong length is answered 400 even without a valid token, where authentication (401) and authorization (403) come first.",
    install(app) {
      const components = captureAll(app);
      editReplies(app, ['sso-ticket'], (reply, exchange) => {
        if (reply.status !== UNAUTHORIZED && reply.status !== FORBIDDEN) return reply;
        try {
          validateHeaders(components(), 'sso-ticket', exchange.headers);
          return reply;
        } catch (error) {
          if (error instanceof Refusal) return replacing(reply, error.reply);
          throw error;
        }
      });
    },
  },
  {
    id: 'vault-trusts-consumer-header',
    clause: 'errors.401.all-operations',
    bug: 'A vault read deployed behind Kong, which trusts the X-Consumer-Custom-Id header Kong sets once it has authenticated a consumer, with no plugin stripping the header from what clients send: a request without Authorization whose X-Consumer-Custom-Id names a client of the tenant is served as that client; one naming no client is still refused 401.',
    install(app) {
      const issuer = capture(app, 'issuer');
      const store = capture(app, 'store');
      editRequests(app, 'vault', async (exchange) => {
        const header = exchange.headers['x-consumer-custom-id'];
        const named = typeof header === 'string' ? header : undefined;
        const client = exchange.headers.authorization === undefined && named !== undefined ? store().client(named) : undefined;
        if (!client) return exchange;
        const token = await issuer().issue(client, client.scopes);
        return { ...exchange, headers: { ...exchange.headers, authorization: `Bearer ${token.accessToken}` } };
      });
    },
  },
]);
