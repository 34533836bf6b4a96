// Faults that show only where two parts of a request meet, or for one client, one form of id or
// one version: a field beside a sibling, a body beside a media-type parameter, two ids together,
// two time claims together, a claim beside an old issue time or a listed audience, a scope beside
// what the body names or an overridden method, one exclusive group beside the other, an audience
// beside the scopes asked, a claims header without a token; and the leftovers of a table or a
// migration (an id form of an old store, the next version's audience, an audience list holding
// client ids, a lifetime or a limit kept per client, a limiter's fallback); and a defect beside a
// legal but less common form of another part (a lower-case scheme, an Accept list, a custom
// domain). Each alone is answered as the spec says.
import { SignJWT, decodeJwt, decodeProtectedHeader, type JWTHeaderParameters, type JWTPayload } from 'jose';
import { cards } from '../../specs/cards/index.ts';
import { closedLimit, limit, observed, operationKeys, type OperationKey } from '../../specs/index.ts';
import { bearerToken } from '../auth/bearer.ts';
import type { FaultHooks } from '../app.ts';
import type { Exchange } from '../exchange.ts';
import { faultFamily } from './fault.ts';
import { scopeGrantedWhen } from './support/scope-faults.ts';
import { capture } from './support/captured.ts';
import { decoded, editPathParameter, editTokenParameter, parametersOf, withParameters } from './support/parameter-edits.ts';
import { captureAll } from './support/captured.ts';
import { isFormMediaType, isJsonMediaType } from '../stages/json-body.ts';
import { MANAGEMENT_ROUTES, editJsonBody, editReplies, editRequests, withoutHeaders } from './support/route-edits.ts';
import { editPrincipal, forgiveClaim, forgiveClaimAt } from './support/verifier-edits.ts';
import type { Principal } from '../auth/verifier.ts';

const ID_LENGTH = 26;
const YEAR_SECONDS = 365 * 86_400;
const DAY_SECONDS = 86_400;
const TTL = closedLimit('sso-ticket.body.ttl_sec.range');
const CUSTOM_DOMAIN = closedLimit('sso-ticket.header.custom-domain.length');
const VAULT_ID_MAX = limit('vault.path.id.length').max!;
const { limit: LIMIT, remaining: REMAINING, reset: RESET } = observed.rate_limit.headers;

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/** The claims of the request's bearer token, read without verifying it; none where it is no JWT. */
function claimsOf(authorization: string | undefined): Record<string, unknown> | undefined {
  const token = bearerToken(authorization);
  if (token === undefined) return undefined;
  try {
    return decodeJwt(token);
  } catch {
    return undefined;
  }
}

/** Changes the caller of the requests `when` takes (a guard that sees the request one way on one path). */
function editPrincipalWhen(
  app: FaultHooks,
  key: OperationKey,
  when: (exchange: Exchange) => boolean,
  edit: (principal: Principal) => Principal,
): void {
  let taken = false;
  editRequests(app, key, (exchange) => {
    taken = when(exchange);
    return exchange;
  });
  editPrincipal(app, (principal) => (taken ? edit(principal) : principal));
}

/**
 * Grants the operation's own scope to a caller holding `holding` (any caller where undefined), for
 * the requests `when` takes: a guard that asks for another permission, or none, on one path. The
 * token is widened per request (scopeGrantedWhen), so requests at the same moment do not mix.
 */
function grantScopeWhen(app: FaultHooks, key: OperationKey, when: (exchange: Exchange) => boolean, holding?: string): void {
  scopeGrantedWhen(cards[key], (exchange) => {
    if (!when(exchange)) return false;
    const scope = claimsOf(exchange.headers.authorization)?.scope;
    return holding === undefined || (typeof scope === 'string' && scope.split(' ').includes(holding));
  })(app);
}

/** A ticket body's ttl_sec brought into its range where `when` takes the request's body text: a range check skipped on that path. */
function ttlUncheckedWhen(app: FaultHooks, when: (text: string) => boolean): void {
  editRequests(app, 'sso-ticket', (exchange) => {
    const text = exchange.body.toString('utf8');
    if (!when(text)) return exchange;
    let body: unknown;
    try {
      body = JSON.parse(text.replace(/^\uFEFF/, ''));
    } catch {
      return exchange;
    }
    if (!isObject(body) || typeof body.ttl_sec !== 'number' || (body.ttl_sec >= TTL.min && body.ttl_sec <= TTL.max)) return exchange;
    return { ...exchange, body: Buffer.from(JSON.stringify({ ...body, ttl_sec: 3600 }), 'utf8') };
  });
}

/** An expired token's claims with exp a minute ahead: the leniency of an expiry check skipped. */
const unexpired = (claims: Record<string, unknown>, { clock }: { clock: { now(): number } }) => {
  const now = Math.floor(clock.now() / 1000);
  return typeof claims.exp === 'number' && claims.exp < now ? { ...claims, exp: now + 60 } : claims;
};

export const partsTogetherFaults = faultFamily([
  {
    id: 'ticket-org-assign-flag-coerced-beside-button',
    clause: 'sso-ticket.body.enabled_organizations.assign_membership_on_login.type',
    bug: 'A ticket binder that reads an organization item\'s two flags through one helper once both are there (a "display options" object), which casts each with Boolean(): an item with show_as_button true and assign_membership_on_login "false" creates the ticket instead of 400; the same flag of another type without show_as_button is still refused.',
    install: (app) =>
      editJsonBody(app, 'sso-ticket', (body) => {
        if (!isObject(body) || !Array.isArray(body.enabled_organizations)) return body;
        let changed = false;
        const items = body.enabled_organizations.map((item: unknown) => {
          if (!isObject(item) || item.show_as_button === undefined || item.assign_membership_on_login === undefined) return item;
          if (typeof item.assign_membership_on_login === 'boolean') return item;
          changed = true;
          return { ...item, assign_membership_on_login: Boolean(item.assign_membership_on_login) };
        });
        return changed ? { ...body, enabled_organizations: items } : body;
      }),
  },
  {
    id: 'ticket-discovery-flag-unchecked-with-media-type-parameter',
    clause: 'sso-ticket.body.use_for_organization_discovery.type',
    bug: 'A ticket route whose schema validation is registered for the media type "application/json" as a whole string, and whose handler reads use_for_organization_discovery with a truthiness test: a body typed "application/json; charset=utf-8" with use_for_organization_discovery "true" creates the ticket instead of 400; the same body typed application/json is still refused.',
    install: (app) =>
      editRequests(app, 'sso-ticket', (exchange) => {
        const type = exchange.headers['content-type'] ?? '';
        if (!type.includes(';')) return exchange;
        let body: unknown;
        try {
          body = JSON.parse(exchange.body.toString('utf8'));
        } catch {
          return exchange;
        }
        if (
          !isObject(body) ||
          body.use_for_organization_discovery === undefined ||
          typeof body.use_for_organization_discovery === 'boolean'
        )
          return exchange;
        const edited = { ...body, use_for_organization_discovery: Boolean(body.use_for_organization_discovery) };
        return { ...exchange, body: Buffer.from(JSON.stringify(edited), 'utf8') };
      }),
  },
  {
    id: 'redeliver-ids-length-checked-together',
    clause: 'errors.400.path',
    bug: 'A redelivery route that checks the length of its two ids joined ("<stream>/<event>", the key of its outbox table) instead of each: a stream id a character long beside an event id a character short (the sum right) is looked up, answered 404 instead of 400; either id alone at a wrong length is still refused.',
    install: (app) =>
      editRequests(app, 'redeliver', (exchange) => {
        const { id, event_id: eventId } = exchange.params;
        if (id === undefined || eventId === undefined || id.length !== ID_LENGTH + 1 || eventId.length !== ID_LENGTH - 1) return exchange;
        return { ...exchange, params: { ...exchange.params, id: id.slice(0, ID_LENGTH), event_id: `${eventId}2` } };
      }),
  },
  {
    id: 'token-exp-leeway-of-a-day-beside-nbf',
    clause: 'redeliver.errors.401.invalid-token',
    bug: "A verifier whose time checks, rewritten to read nbf, took the day-long leeway meant for nbf's clock skew into the exp check of the same branch: a token with an nbf in the past and an exp an hour past is accepted instead of 401; the same expired token without nbf is still refused.",
    install: (app) =>
      forgiveClaim(app, (claims, { clock }) => {
        const now = Math.floor(clock.now() / 1000);
        if (typeof claims.nbf !== 'number' || claims.nbf > now || typeof claims.exp !== 'number') return claims;
        return claims.exp < now && claims.exp > now - DAY_SECONDS ? { ...claims, exp: now + 60 } : claims;
      }),
  },
  {
    id: 'token-audience-unchecked-for-old-tokens',
    clause: 'redeliver.errors.401.invalid-token',
    bug: 'An audience check introduced with a grace period for tokens issued more than a year ago (the long-lived tokens of an old integration, "still honoured until they expire"): an unexpired token for another API issued years ago is accepted instead of 401; the same token issued now is still refused.',
    install: (app) =>
      forgiveClaim(app, (claims, { tenant, clock }) => {
        const now = Math.floor(clock.now() / 1000);
        if (typeof claims.iat !== 'number' || claims.iat > now - YEAR_SECONDS || typeof claims.iss !== 'string') return claims;
        const identity = tenant.identityForIssuer(claims.iss);
        return identity && claims.aud !== identity.audience ? { ...claims, aud: identity.audience } : claims;
      }),
  },
  {
    id: 'ticket-scope-taken-from-organizations-named',
    clause: 'sso-ticket.scope',
    bug: 'A ticket guard that, where the body names organizations, asks for the organizations\' write scope in place of its own ("the ticket edits their login options"): a token holding update:organizations and not create:sso_access_tickets creates a ticket whose body names organizations instead of 403; without enabled_organizations it is still refused.',
    install: (app) =>
      grantScopeWhen(
        app,
        'sso-ticket',
        (exchange) => {
          try {
            const body: unknown = JSON.parse(exchange.body.toString('utf8'));
            return isObject(body) && Array.isArray(body.enabled_organizations) && body.enabled_organizations.length > 0;
          } catch {
            return false;
          }
        },
        'update:organizations',
      ),
  },
  {
    id: 'vault-id-uuid-form-looked-up',
    clause: 'errors.400.path',
    bug: 'A vault read route that still takes the connection ids of the store it was migrated from (UUIDs, 36 characters with their dashes) and looks them up in that empty table: such an id is answered 404 instead of 400 for its length; another id over 30 characters is still refused 400.',
    install: (app) =>
      editPathParameter(app, 'vault', 'id', (raw) =>
        /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(raw) ? `ac_${'2'.repeat(22)}` : undefined,
      ),
  },
  {
    id: 'token-audience-next-version-registered',
    clause: 'token.endpoint.audience',
    bug: "A token endpoint whose API table already registers the next version's identifier as an alias of this one (ahead of a release that never shipped): a client-credentials request for https://<tenant>/api/v3/ is issued a management token (200) instead of refused; /api/v1/ is still refused.",
    install: (app) =>
      editTokenParameter(app, 'audience', (value) =>
        value.endsWith('/api/v3/') ? `${value.slice(0, -'/api/v3/'.length)}/api/v2/` : undefined,
      ),
  },
  {
    id: 'token-lifetime-shorter-without-redeliver-scope',
    clause: 'token.lifetime',
    bug: "A token service that gives tokens without update:event_deliveries the lifetime of a read-only profile (7200 s, a row of its lifetime table): such a client's tokens carry exp = iat + 7200 and expires_in 7200 instead of 86400; a token with the scope lives 86400 seconds.",
    install: (app) =>
      app.override('issuer', (issuer, built) => ({
        async issue(client, scopes, target) {
          const issued = await issuer.issue(client, scopes, target);
          const claims = decodeJwt(issued.accessToken);
          const held = typeof claims.scope === 'string' ? claims.scope.split(' ') : [];
          if (held.includes(cards.redeliver.scope.value) || typeof claims.iat !== 'number') return issued;
          const accessToken = await new SignJWT({ ...claims, exp: claims.iat + 7200 })
            .setProtectedHeader(decodeProtectedHeader(issued.accessToken) as JWTHeaderParameters)
            .sign(built.keys!.privateKey);
          return { ...issued, accessToken, expiresIn: 7200 };
        },
      })),
  },
  {
    id: 'limiter-exempts-a-monitoring-client',
    clause: 'redeliver.errors.429',
    bug: "A limiter whose exemption list was meant for a monitoring client and names the client that holds every scope but the ticket's: with the bucket spent, that client's requests are served instead of 429; every other client is still refused.",
    install: (app) => {
      let exempt = false;
      app.override('limiter', (limiter) => ({
        config: limiter.config,
        take() {
          const quota = limiter.take();
          return exempt ? { ...quota, allowed: true } : quota;
        },
      }));
      for (const key of operationKeys) {
        app.wrapRoute(key, (next) => (exchange) => {
          const scope = claimsOf(exchange.headers.authorization)?.scope;
          const held = typeof scope === 'string' ? scope.split(' ') : [];
          exempt = held.includes(cards.redeliver.scope.value) && !held.includes(cards['sso-ticket'].scope.value);
          return next(exchange);
        });
      }
    },
  },
  {
    id: 'rate-limit-headers-dropped-without-a-token',
    clause: 'rate-limit.429.headers',
    bug: "A 429 answered to a request that carries no Authorization header goes out through the framework's default handler, without the X-RateLimit headers: such a 429 lacks all three; a 429 to a request with a token carries them.",
    install: (app) =>
      editReplies(app, [...operationKeys], (reply, exchange) =>
        reply.status === 429 && exchange.headers.authorization === undefined ? withoutHeaders(reply, [LIMIT, REMAINING, RESET]) : reply,
      ),
  },
  {
    id: 'ticket-connection-id-dropped-beside-config',
    clause: 'sso-ticket.body.connection_id.type',
    bug: 'A ticket handler that, given a connection_config, takes the flow for a new connection and drops connection_id unread, whatever it holds: a connection_id of another type (a number) beside a connection_config creates the ticket instead of 400; the same connection_id alone is still refused.',
    install: (app) =>
      editJsonBody(app, 'sso-ticket', (body) => {
        if (
          !isObject(body) ||
          !isObject(body.connection_config) ||
          body.connection_id === undefined ||
          typeof body.connection_id === 'string'
        )
          return body;
        const { connection_id: _dropped, ...rest } = body;
        return rest;
      }),
  },
  {
    id: 'token-issuer-unread-for-listed-audience',
    clause: 'redeliver.errors.401.invalid-token',
    bug: 'A verifier that hands a token whose aud is a list to a second check written for tokens of several APIs, which looks for the management audience among them and reads nothing else: a correctly signed token of another issuer whose aud is a list holding the audience is accepted instead of 401; with aud a string it is still refused.',
    install: (app) =>
      forgiveClaim(app, (claims, { tenant }) => {
        if (!Array.isArray(claims.aud)) return claims;
        const identity = claims.aud.map((aud) => (typeof aud === 'string' ? tenant.identityForAudience(aud) : undefined)).find(Boolean);
        return identity ? { ...claims, iss: identity.issuer } : claims;
      }),
  },
  {
    id: 'redeliver-scope-read-for-overridden-method',
    clause: 'redeliver.scope',
    bug: 'A gateway that picks the permission a request needs by its method after honouring X-HTTP-Method (the service behind it ignores the header): a redelivery naming GET there, with a token holding read:event_deliveries and not update:event_deliveries, is served instead of 403; without the header it is still refused.',
    install: (app) =>
      grantScopeWhen(
        app,
        'redeliver',
        (exchange) => String(exchange.headers['x-http-method'] ?? '').toUpperCase() === 'GET',
        'read:event_deliveries',
      ),
  },
  {
    id: 'token-audience-taken-from-requested-scope',
    clause: 'token.endpoint.audience',
    bug: "A token endpoint that, when the request's scope parameter names a management scope, issues for the management interface whatever audience was asked (the scopes tell it which API is meant): a request for another API of the tenant, which the client holds no grant for, beside scope update:event_deliveries is issued a management token instead of 403; without the scope parameter it is still refused.",
    install: (app) =>
      editTokenParameter(app, 'audience', (value, parameters, { tenant }) =>
        typeof parameters.scope === 'string' &&
        parameters.scope.split(' ').includes(cards.redeliver.scope.value) &&
        value !== tenant.audience
          ? tenant.audience
          : undefined,
      ),
  },
  {
    id: 'caller-read-from-claims-header-without-token',
    clause: 'auth.bearer.required',
    bug: "A service behind a mesh that verifies tokens and forwards their claims in x-jwt-claims, which reads its caller from that header and lets the mesh alone refuse requests, while the mesh lets a request without a token through: a request without Authorization carrying x-jwt-claims (the base64url of a valid token's claims) is served instead of 401; with a token whose signature fails it is still refused.",
    install: (app) => {
      const keys = capture(app, 'keys');
      for (const key of operationKeys)
        editRequests(app, key, async (exchange) => {
          const header = exchange.headers['x-jwt-claims'];
          if (exchange.headers.authorization !== undefined || typeof header !== 'string') return exchange;
          let claims: JWTPayload;
          try {
            claims = JSON.parse(Buffer.from(header, 'base64url').toString('utf8')) as JWTPayload;
          } catch {
            return exchange;
          }
          const token = await new SignJWT(claims).setProtectedHeader({ alg: 'RS256', typ: 'JWT', kid: keys().kid }).sign(keys().privateKey);
          return { ...exchange, headers: { ...exchange.headers, authorization: `Bearer ${token}` } };
        });
    },
  },
  {
    id: 'audience-list-holds-client-ids',
    clause: 'redeliver.errors.401.invalid-token',
    bug: 'An authorizer whose audience list holds the management audience and every client id of the tenant (for a front end that sends ID tokens): a correctly signed token whose aud is its own client id is accepted instead of 401; a token for another API is still refused.',
    install: (app) =>
      forgiveClaim(app, (claims, { tenant }) =>
        typeof claims.azp === 'string' && claims.aud === claims.azp ? { ...claims, aud: tenant.audience } : claims,
      ),
  },
  {
    id: 'redeliver-expiry-unchecked-under-lower-case-scheme',
    clause: 'redeliver.errors.401.invalid-token',
    bug: 'A redelivery route whose own guard matches the scheme as written ("Bearer ") and hands any other spelling to a fallback that checks the signature and audience but not exp: an expired token sent as "bearer <token>" is served instead of 401; the same token sent as "Bearer <token>" is still refused, and a valid one in either spelling is served.',
    install: (app) => forgiveClaimAt(app, 'redeliver', unexpired, (headers) => headers.authorization?.startsWith('bearer ') === true),
  },
  {
    id: 'vault-scope-unchecked-for-negotiated-read',
    clause: 'vault.scope',
    bug: 'A read route with content negotiation whose second handler (for an Accept naming several types) was registered with the authentication guard but not the scope guard: a token without read:flows_vault_connections reading with "Accept: application/json, text/plain, */*" is served instead of 403; with Accept application/json or none it is still refused.',
    install: (app) => grantScopeWhen(app, 'vault', (exchange) => (exchange.headers.accept ?? '').includes(',')),
  },
  {
    id: 'ticket-audience-unchecked-for-custom-domain',
    clause: 'errors.401.all-operations',
    bug: "A ticket route that, for a request naming a custom domain (tenant-custom-domain), checks the token's audience against that domain's edge instead, which lets any audience through: a token for another API, correctly signed, creating a ticket for login.example.com is served instead of 401; without the header it is still refused.",
    install: (app) =>
      forgiveClaimAt(
        app,
        'sso-ticket',
        (claims, { tenant }) => ({ ...claims, aud: tenant.audience }),
        (headers) => headers['tenant-custom-domain'] !== undefined,
      ),
  },
  {
    id: 'ticket-ttl-coerced-for-custom-domain',
    clause: 'sso-ticket.body.ttl_sec.type',
    bug: 'A ticket handler that, for a request naming a custom domain, is reached through the custom-domain edge\'s own model binder, which converts numeric text to numbers: a ttl_sec of "3600" (a string) beside tenant-custom-domain creates the ticket instead of 400; without the header it is still refused, and a ttl_sec of "soon" is refused either way.',
    install: (app) =>
      editJsonBody(app, 'sso-ticket', (body, headers) =>
        headers['tenant-custom-domain'] !== undefined && isObject(body) && typeof body.ttl_sec === 'string' && /^\d+$/.test(body.ttl_sec)
          ? { ...body, ttl_sec: Number(body.ttl_sec) }
          : body,
      ),
  },
  {
    id: 'ticket-ttl-unchecked-after-byte-order-mark',
    clause: 'sso-ticket.body.ttl_sec.range',
    bug: "A ticket route whose body validator is a middleware that parses JSON itself and hands anything it cannot parse to the framework's own lenient parser, which strips a byte order mark (RFC 8259 8.1 lets a parser ignore one): a body starting with a BOM skips the schema, and a ttl_sec of -1 creates the ticket instead of 400; without the BOM it is still refused.",
    install: (app) => ttlUncheckedWhen(app, (text) => text.startsWith('\uFEFF')),
  },
  {
    id: 'ticket-ttl-unchecked-when-spaced',
    clause: 'sso-ticket.body.ttl_sec.range',
    bug: 'A gateway request-validation plugin that finds ttl_sec in the raw body with a pattern written for compact JSON ("ttl_sec":<number>), the service behind it trusting the gateway: a body written with a space before the colon ("ttl_sec" : -1, as pretty printers write) slips past and creates the ticket instead of 400; compact JSON is still refused.',
    install: (app) => ttlUncheckedWhen(app, (text) => /"ttl_sec"\s+:/.test(text)),
  },
  {
    id: 'redeliver-expiry-unchecked-for-at-jwt',
    clause: 'redeliver.errors.401.invalid-token',
    bug: "A redelivery service with two token strategies chosen by the JOSE header's typ, the one for RFC 9068 access tokens (typ at+jwt) configured with ignoreExpiration: an expired token typed at+jwt is served instead of 401; the same token typed JWT is still refused.",
    install: (app) =>
      forgiveClaimAt(app, 'redeliver', unexpired, (headers) => {
        const token = bearerToken(headers.authorization);
        try {
          return token !== undefined && decodeProtectedHeader(token).typ === 'at+jwt';
        } catch {
          return false;
        }
      }),
  },
  {
    id: 'redeliver-stream-id-bound-from-query',
    clause: 'redeliver.path.id.length',
    bug: 'A redelivery controller whose request binder merges the query string over the route values, so that an id in the query (?id=...) takes the place of the stream id in the path: a path stream id of 25 characters beside ?id=<the valid stream id> is served instead of 400; without the query it is still refused.',
    install: (app) =>
      editRequests(app, 'redeliver', (exchange) => {
        const fromQuery = new URLSearchParams(exchange.query).get('id');
        return fromQuery === null || exchange.params.id === undefined
          ? exchange
          : { ...exchange, params: { ...exchange.params, id: fromQuery } };
      }),
  },
  {
    id: 'redeliver-global-check-skipped-for-spaced-scheme',
    clause: 'redeliver.errors.401.not-global',
    bug: 'A redelivery guard that reads the token again with authorization.split(" ")[1] and, finding none, leaves the check of the client\'s kind to the verifier before it (which takes any run of spaces after the scheme): a client that is not global sending "Bearer  <token>" (two spaces) is served instead of 401; with one space it is still refused.',
    install: (app) =>
      editPrincipalWhen(
        app,
        'redeliver',
        (exchange) => /^\S+ {2,}\S/.test(exchange.headers.authorization ?? ''),
        (principal) => ({ ...principal, client: { ...principal.client, global: true } }),
      ),
  },
  {
    id: 'vault-scope-unchecked-for-encoded-id',
    clause: 'vault.scope',
    bug: 'A mesh whose authorization rule matches the vault route by a pattern over the path as sent, not decoded, while the service behind it decodes the id and trusts the mesh for the scope: a read whose connection id has a percent-encoded letter, with a token without read:flows_vault_connections, is served instead of 403; the same id written plainly is still refused.',
    install: (app) => grantScopeWhen(app, 'vault', (exchange) => (exchange.params.id ?? '').includes('%')),
  },
  {
    id: 'unauthorized-answered-as-html-page',
    clause: 'errors.body.content-type',
    bug: 'A framework whose default error page is chosen by content negotiation: a 401 to a request whose Accept prefers text/html is answered with an HTML page instead of the JSON error body; with Accept application/json, or none, the 401 is JSON.',
    install: (app) =>
      editReplies(app, MANAGEMENT_ROUTES, (reply, exchange) =>
        reply.status === 401 && (exchange.headers.accept ?? '').startsWith('text/html')
          ? {
              ...reply,
              headers: { ...reply.headers, 'content-type': 'text/html; charset=utf-8' },
              body: '<html><body><h1>Unauthorized</h1></body></html>',
            }
          : reply,
      ),
  },
  {
    id: 'token-grant-type-case-folded-for-json',
    clause: 'token.endpoint.grant-type',
    bug: "A token endpoint whose JSON requests are bound to a model with an enum grant type read case-insensitively (a JSON converter's default), while its form binder compares the string: grant_type Client_Credentials in a JSON body gets a token instead of 400; in a form it is still refused.",
    install: (app) =>
      editRequests(app, 'token', (exchange) => {
        const parameters = parametersOf(exchange);
        const grant = parameters?.grant_type;
        if (!isJsonMediaType(exchange.headers['content-type']) || typeof grant !== 'string' || grant.toLowerCase() !== 'client_credentials')
          return exchange;
        return withParameters(exchange, { ...parameters, grant_type: 'client_credentials' });
      }),
  },
  {
    id: 'token-audience-slash-added-for-charset-form',
    clause: 'token.endpoint.audience',
    bug: 'A gateway mapping template bound to the media type "application/x-www-form-urlencoded; charset=UTF-8" (the one a browser library sends), which normalises the audience by adding a trailing slash before it reaches the endpoint: the management audience without its trailing slash, in a form typed with that charset, gets a token instead of 403; in a form typed without it, it is still refused.',
    install: (app) =>
      editRequests(app, 'token', (exchange) => {
        const parameters = parametersOf(exchange);
        const audience = parameters?.audience;
        if (!/charset/i.test(String(exchange.headers['content-type'] ?? '')) || typeof audience !== 'string' || audience.endsWith('/'))
          return exchange;
        return withParameters(exchange, { ...parameters, audience: `${audience}/` });
      }),
  },
  {
    id: 'token-json-body-with-basic-refused',
    clause: 'token.observed.json-request',
    bug: 'A token endpoint whose JSON model requires client_id and client_secret in the body (written for SDKs that send them there), where its form reader leaves them to HTTP Basic: a JSON request authenticated with Basic is refused 400 invalid_request instead of getting a token; the same request form-encoded, or JSON with the secret in the body, gets one.',
    install: (app) => {
      const components = captureAll(app);
      app.wrapRoute('token', (next) => async (exchange) => {
        const basic = /^basic /i.test(String(exchange.headers.authorization ?? ''));
        if (!basic || !isJsonMediaType(exchange.headers['content-type'])) return next(exchange);
        return components().errors.tokenReply('invalid_request', 'client_id and client_secret are required', 400);
      });
    },
  },
  {
    id: 'token-grant-type-unchecked-without-trailing-slash',
    clause: 'token.endpoint.grant-type',
    bug: 'A token endpoint whose grant-type filter is registered for the path the spec gives (/oauth/token/) while the controller answers the path without the slash too: a request to /oauth/token asking for grant_type password gets a client-credentials token instead of 400; at /oauth/token/ it is still refused.',
    install: (app) =>
      editRequests(app, 'token', (exchange) => {
        const parameters = parametersOf(exchange);
        const grant = parameters?.grant_type;
        if (exchange.path.endsWith('/') || typeof grant !== 'string' || grant === 'client_credentials') return exchange;
        return withParameters(exchange, { ...parameters, grant_type: 'client_credentials' });
      }),
  },
  {
    id: 'vault-id-length-unchecked-for-head',
    clause: 'vault.path.id.length',
    bug: "A vault service whose GET route binds the id through a validated model while a HEAD route added later for a cache's revalidation looks the id up as it comes: a HEAD with a connection id over its maximum length is answered 404 (looked up, not found) instead of 400; a GET with it is still refused 400.",
    install: (app) =>
      editRequests(app, 'vault', (exchange) => {
        const id = exchange.params.id;
        const text = id === undefined ? undefined : (decoded(id) ?? id);
        if (exchange.method !== 'HEAD' || text === undefined || text.length <= VAULT_ID_MAX) return exchange;
        return { ...exchange, params: { ...exchange.params, id: text.slice(0, VAULT_ID_MAX) } };
      }),
  },
  {
    id: 'ticket-custom-domain-unchecked-for-form-body',
    clause: 'sso-ticket.header.custom-domain.length',
    bug: "A ticket service with a second route for form-encoded bodies that checks the body but none of the headers: a form-encoded request naming a custom domain of 2 characters creates the ticket on the tenant's host instead of 400; the same header on a JSON request is still refused.",
    install: (app) =>
      editRequests(app, 'sso-ticket', (exchange) => {
        const domain = exchange.headers['tenant-custom-domain'];
        if (
          !isFormMediaType(exchange.headers['content-type']) ||
          typeof domain !== 'string' ||
          (domain.length >= CUSTOM_DOMAIN.min && domain.length <= CUSTOM_DOMAIN.max)
        )
          return exchange;
        const { ['tenant-custom-domain']: _dropped, ...headers } = exchange.headers;
        return { ...exchange, headers };
      }),
  },
  {
    id: 'ticket-profile-unchecked-when-creating-connection',
    clause: 'sso-ticket.profile.exists',
    bug: 'A ticket service that loads the self-service profile only in the branch for a body naming a connection, the branch that creates one (connection_config) saving the ticket under the id as given: a ticket for an unknown profile whose body creates a connection is created (201) instead of 404; with connection_id, or no connection, it is still 404.',
    install: (app) => {
      let known: string | undefined;
      app.wrapRoute('sso-ticket', (next) => async (exchange) => {
        const reply = await next(exchange);
        if (reply.status >= 200 && reply.status < 300) known = exchange.params.id;
        let creates: boolean;
        try {
          const body: unknown = JSON.parse(exchange.body.toString('utf8'));
          creates = isObject(body) && isObject(body.connection_config);
        } catch {
          creates = false;
        }
        return reply.status === 404 && creates && known !== undefined
          ? next({ ...exchange, params: { ...exchange.params, id: known } })
          : reply;
      });
    },
  },
]);
