// The token endpoint and the tokens it issues (spec 5, 6 and the observed token facts): where it
// answers, what it reads and answers, and what an issued token carries. Tokens are changed by
// re-signing each issued one, with the tenant's key, after its header or claims were edited.
import { AsyncLocalStorage } from 'node:async_hooks';
import { SignJWT, decodeJwt, decodeProtectedHeader, type CryptoKey, type JWTHeaderParameters, type JWTPayload } from 'jose';
import type { FaultHooks } from '../app.ts';
import type { IssuedToken } from '../auth/issuer.ts';
import { reasonPhrase } from '../errors.ts';
import type { Exchange, Reply } from '../exchange.ts';
import { FORM_MEDIA_TYPE, isJsonMediaType } from '../stages/json-body.ts';
import { faultFamily } from './fault.ts';
import { capture } from './support/captured.ts';
import { editReplies, editRequests, withoutHeaders } from './support/route-edits.ts';
import { editPrincipal } from './support/verifier-edits.ts';
import { parametersOf } from './support/parameter-edits.ts';

const OK = 200;

/** The token's scope claim, a space-separated string ('' when absent). */
const scopeOf = (claims: JWTPayload): string => (typeof claims.scope === 'string' ? claims.scope : '');
const ERROR_FROM = 400;
/** A common default lifetime, where the real service issues tokens for a day. */
const ONE_HOUR = 3600;
/** The old name of update:event_deliveries, not in the scope catalogue. */
const LEGACY_SCOPE = 'update:event_redeliveries';

interface TokenChange {
  header?(header: JWTHeaderParameters): JWTHeaderParameters;
  claims?(claims: JWTPayload): JWTPayload;
  /** expires_in of the token response, from the (changed) claims. */
  expiresIn?(claims: JWTPayload, issued: IssuedToken): number;
}

function same<T>(value: T): T {
  return value;
}

/** Re-signs each issued token, with the tenant's key, after `change` has edited it. */
function reissueTokens(app: FaultHooks, change: TokenChange, applies: () => boolean = () => true): void {
  app.override('issuer', (issuer, built) => ({
    async issue(client, scopes, target) {
      const issued = await issuer.issue(client, scopes, target);
      if (!applies()) return issued;
      const header = (change.header ?? same)(decodeProtectedHeader(issued.accessToken) as JWTHeaderParameters);
      const claims = (change.claims ?? same)(decodeJwt(issued.accessToken));
      const accessToken = await new SignJWT(claims).setProtectedHeader(header).sign(built.keys!.privateKey);
      return { ...issued, accessToken, expiresIn: change.expiresIn ? change.expiresIn(claims, issued) : issued.expiresIn };
    },
  }));
}

/**
 * The scopes a token request asks for granted as asked (those `kept` keeps, given the grant): the
 * request is answered as if it asked for none (the client's whole grant), then the token is
 * re-signed with the asked scopes added.
 */
function grantsWhatIsAsked(app: FaultHooks, kept: (asked: string, granted: readonly string[]) => boolean = () => true): void {
  const keys = capture(app, 'keys');
  app.wrapRoute('token', (next) => async (exchange) => {
    const form = new URLSearchParams(exchange.body.toString('utf8'));
    const asked = form.get('scope');
    if (!asked) return next(exchange);
    form.delete('scope');
    const reply = await next({ ...exchange, body: Buffer.from(form.toString(), 'utf8') });
    return withScopeClaim(reply, keys().privateKey, (granted) =>
      [...new Set([...granted, ...asked.split(' ').filter((scope) => kept(scope, granted))])].filter(Boolean).join(' '),
    );
  });
}

/** A token answer re-signed with the scope claim `scope(granted)` writes (the answer as it is where it issued none, or where that gives undefined). */
async function withScopeClaim(reply: Reply, key: CryptoKey, scope: (granted: string[]) => string | undefined): Promise<Reply> {
  const body = reply.body as { access_token?: string; scope?: string } | undefined;
  if (reply.status !== OK || !body?.access_token) return reply;
  const claims = decodeJwt(body.access_token);
  const written = scope(scopeOf(claims).split(' ').filter(Boolean));
  if (written === undefined) return reply;
  const header = decodeProtectedHeader(body.access_token) as JWTHeaderParameters;
  const accessToken = await new SignJWT({ ...claims, scope: written }).setProtectedHeader(header).sign(key);
  return { ...reply, body: { ...body, access_token: accessToken, scope: written } };
}

/** The scopes a form-encoded token request asks for (none when it has no scope parameter). */
const formScopes = (exchange: Exchange): string[] =>
  isJsonMediaType(exchange.headers['content-type'])
    ? []
    : (new URLSearchParams(exchange.body.toString('utf8')).get('scope') ?? '').split(' ').filter(Boolean);

/** A narrowed grant's scopes written into the claim by the list's toString(): joined by commas. */
function narrowedScopesJoinedWithCommas(app: FaultHooks): void {
  const keys = capture(app, 'keys');
  app.wrapRoute('token', (next) => async (exchange) => {
    const reply = await next(exchange);
    return formScopes(exchange).length === 0 ? reply : withScopeClaim(reply, keys().privateKey, (granted) => granted.toString());
  });
}

/** The scopes asked for checked with some() for every(): a refused request asked again without its scope, and given all it asked where one of them is granted. */
function askedGrantedIfAnyIs(app: FaultHooks): void {
  const keys = capture(app, 'keys');
  app.wrapRoute('token', (next) => async (exchange) => {
    const reply = await next(exchange);
    const asked = formScopes(exchange);
    if (reply.status === OK || asked.length < 2) return reply;
    const form = new URLSearchParams(exchange.body.toString('utf8'));
    form.delete('scope');
    const whole = await next({ ...exchange, body: Buffer.from(form.toString(), 'utf8') });
    const granted = await withScopeClaim(whole, keys().privateKey, (grant) =>
      asked.some((scope) => grant.includes(scope)) ? asked.join(' ') : undefined,
    );
    return granted === whole ? reply : granted;
  });
}

/** The scope parameter of a token request, form-encoded or JSON (undefined when it has none). */
function askedScope(exchange: Exchange): string | undefined {
  const text = exchange.body.toString('utf8');
  if (!isJsonMediaType(exchange.headers['content-type'])) return new URLSearchParams(text).get('scope') ?? undefined;
  try {
    const scope = (JSON.parse(text) as { scope?: unknown } | null)?.scope;
    return typeof scope === 'string' ? scope : undefined;
  } catch {
    return undefined;
  }
}

/** Tokens issued with no scopes where the request's scope parameter is one `narrowsToNone` reads as naming none. */
function noScopesFor(app: FaultHooks, narrowsToNone: (asked: string) => boolean): void {
  const asked = new AsyncLocalStorage<string | undefined>();
  app.wrapRoute('token', (next) => (exchange) => asked.run(askedScope(exchange), () => next(exchange)));
  app.override('issuer', (issuer) => ({
    issue(client, scopes, target) {
      const scope = asked.getStore();
      return issuer.issue(client, scope !== undefined && narrowsToNone(scope) ? [] : scopes, target);
    },
  }));
}

/**
 * The scope parameter split on commas and any white space to check it against the grant, and the
 * claim written from the parameter as sent (trimmed): a list written otherwise than one space apart
 * puts its own separators into the token.
 */
function claimWrittenAsAsked(app: FaultHooks): void {
  const keys = capture(app, 'keys');
  app.wrapRoute('token', (next) => async (exchange) => {
    if (isJsonMediaType(exchange.headers['content-type'])) return next(exchange);
    const form = new URLSearchParams(exchange.body.toString('utf8'));
    const asked = form.get('scope')?.trim();
    const split = asked?.split(/[\s,]+/).filter(Boolean) ?? [];
    if (asked === undefined || split.join(' ') === asked) return next(exchange);
    form.set('scope', split.join(' '));
    const reply = await next({ ...exchange, body: Buffer.from(form.toString(), 'utf8') });
    return withScopeClaim(reply, keys().privateKey, () => asked);
  });
}

/** Tokens of the token requests `picked` picks re-signed after `change`: a second way of issuing, for one form of request. */
function reissueTokensOf(app: FaultHooks, picked: (exchange: Exchange) => boolean, change: TokenChange): void {
  const current = new AsyncLocalStorage<boolean>();
  app.wrapRoute('token', (next) => (exchange) => current.run(picked(exchange), () => next(exchange)));
  reissueTokens(app, change, () => current.getStore() === true);
}

/** Token requests whose Content-Type `misread(type)` takes for another media type read as that one. */
function readAs(app: FaultHooks, misread: (type: string | undefined) => string | undefined): void {
  editRequests(app, 'token', (exchange) => {
    const type = misread(exchange.headers['content-type']);
    return type === undefined ? exchange : { ...exchange, headers: { ...exchange.headers, 'content-type': type } };
  });
}

const isTextPlain = (type: string | undefined): boolean => type?.split(';')[0]?.trim().toLowerCase() === 'text/plain';

export const tokenIssuingFaults = faultFamily([
  {
    id: 'issued-audience-as-a-list',
    clause: 'token.observed.claims',
    bug: 'An issuer whose builder writes the audience as a set (a JSON list even of one): every token carries "aud": ["<audience>"] instead of the string the tenant issues; the tokens still verify and are accepted.',
    install: (app) => reissueTokens(app, { claims: (claims) => ({ ...claims, aud: [claims.aud].flat() as string[] }) }),
  },
  {
    id: 'token-grants-the-scopes-asked',
    clause: 'token.observed.granted-scopes',
    bug: "A token endpoint that puts the request's scope parameter in the token without checking it against the client's grant: a client asking for delete:users gets it.",
    install: (app) => grantsWhatIsAsked(app),
  },
  {
    id: 'token-grants-scopes-by-prefix',
    clause: 'token.observed.granted-scopes',
    bug: 'A grant check written as a prefix match (startsWith): a client asking for the start of a scope it is granted (update:event for update:event_deliveries) gets it in its token; delete:users is still left out.',
    install: (app) => grantsWhatIsAsked(app, (asked, granted) => granted.some((scope) => scope !== asked && scope.startsWith(asked))),
  },
  {
    id: 'token-claim-written-as-asked',
    clause: 'scopes.catalogue',
    bug: "A token endpoint that checks the scope parameter against the grant after splitting it on commas and any white space (Ruby's split(/[\\s,]+/)) and writes the token's scope claim from the parameter as sent: two granted scopes asked for apart by two spaces or a comma get a token whose claim keeps them so (not one space apart, or one scope outside the catalogue); a list one space apart, or naming a scope the client is not granted, is treated as before.",
    install: claimWrittenAsAsked,
  },
  {
    id: 'token-json-request-issued-for-an-hour',
    clause: 'token.observed.claims',
    bug: `A JSON token request handled by a second controller (added for an SDK) whose token factory was configured apart, with a lifetime of ${ONE_HOUR} s: a token asked for with a JSON body lives an hour (exp - iat and expires_in ${ONE_HOUR}) where a form-encoded request's lives a day.`,
    install: (app) =>
      reissueTokensOf(app, (exchange) => isJsonMediaType(exchange.headers['content-type']), {
        claims: (claims) => ({ ...claims, exp: (claims.iat ?? 0) + ONE_HOUR }),
        expiresIn: () => ONE_HOUR,
      }),
  },
  {
    id: 'token-errors-carry-debug-members',
    clause: 'token.observed.errors',
    bug: 'Token endpoint errors written by a framework that adds its own members to the RFC 6749 shape (a "status_code" and an "error_debug" left on in production): {error, error_description, status_code, error_debug} where the service answers {error, error_description}.',
    install: (app) =>
      editReplies(app, ['token'], (reply) => {
        const body = reply.body as { error?: unknown } | undefined;
        if (reply.status < ERROR_FROM || typeof body?.error !== 'string') return reply;
        return { ...reply, body: { ...body, status_code: reply.status, error_debug: 'The request failed validation.' } };
      }),
  },
  {
    id: 'token-scope-left-out-when-as-asked',
    clause: 'token.observed.response',
    bug: 'A token answer that leaves scope out where the token carries exactly the scopes asked for (RFC 6749 5.1 makes it optional then), where the service always writes it: a request naming two granted scopes gets {access_token, token_type, expires_in} without scope; a request naming none gets its scope as before.',
    install: (app) =>
      editReplies(app, ['token'], (reply, exchange) => {
        const body = reply.body as { scope?: unknown } | undefined;
        const asked = askedScope(exchange)?.split(' ').filter(Boolean).sort().join(' ');
        if (reply.status !== OK || typeof body?.scope !== 'string' || !asked) return reply;
        if (body.scope.split(' ').filter(Boolean).sort().join(' ') !== asked) return reply;
        const { scope: _left, ...rest } = body;
        return { ...reply, body: rest };
      }),
  },
  {
    id: 'token-answer-typed-text-plain',
    clause: 'token.observed.response',
    bug: 'A token route that writes its answer with a text helper whose content type defaults to text/plain: every token answer is the same JSON typed "text/plain; charset=utf-8" instead of application/json; the errors keep their type.',
    install: (app) =>
      editReplies(app, ['token'], (reply) =>
        reply.status === OK ? { ...reply, headers: { ...reply.headers, 'content-type': 'text/plain; charset=utf-8' } } : reply,
      ),
  },
  {
    id: 'token-answer-scope-echoes-request',
    clause: 'token.observed.response',
    bug: "The token answer's scope written from the request's scope parameter as it came, while the token carries what was granted of it: a request asking for a granted scope and one that is not gets a token carrying the granted one, answered with both; a request without a scope parameter is answered as before.",
    install: (app) =>
      editReplies(app, ['token'], (reply, exchange) => {
        const asked = parametersOf(exchange)?.scope;
        const body = reply.body as Record<string, unknown> | undefined;
        return reply.status === OK && typeof asked === 'string' && asked.trim() !== '' && body
          ? { ...reply, body: { ...body, scope: asked } }
          : reply;
      }),
  },
  {
    id: 'token-json-type-compared-whole',
    clause: 'token.observed.json-request',
    bug: 'The JSON token route taken only where the whole Content-Type equals "application/json", parameters and all: a JSON token request typed "application/json; charset=utf-8" is refused as a body of an unsupported type instead of getting a token; "application/json" alone still gets one.',
    install: (app) => readAs(app, (type) => (/^application\/json\s*;/i.test(type ?? '') ? 'application/octet-stream' : undefined)),
  },
  {
    id: 'token-answer-members-camel-cased',
    clause: 'token.endpoint',
    bug: 'A token answer written by a serializer with a camelCase naming policy: {accessToken, tokenType, expiresIn, scope} where RFC 6749 5.1 names access_token, token_type and expires_in; no client reads a token from it.',
    install: (app) =>
      editReplies(app, ['token'], (reply) => {
        const body = reply.body as Record<string, unknown> | undefined;
        if (reply.status !== OK || typeof body?.access_token !== 'string') return reply;
        const camel = (name: string) => name.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());
        return { ...reply, body: Object.fromEntries(Object.entries(body).map(([name, value]) => [camel(name), value])) };
      }),
  },
  {
    id: 'token-empty-scope-splits-to-none',
    clause: 'token.scopes',
    bug: "The scope parameter taken as a narrowing whenever it is present and split on spaces without dropping empty items: scope= asks for the scope '', which the grant holds none of, and gets a token carrying no scopes (refused by every operation).",
    install: (app) => noScopesFor(app, (scope) => scope.trim() === ''),
  },
  {
    id: 'token-blank-scope-narrows-to-none',
    clause: 'token.scopes',
    bug: 'The scope parameter taken as a narrowing where it is truthy and split with its empty items dropped: a scope of one space names nothing and gets a token carrying no scopes (scope= still gets the grant).',
    install: (app) => noScopesFor(app, (scope) => scope !== '' && scope.trim() === ''),
  },
  {
    id: 'token-text-plain-read-as-json',
    clause: 'token.observed.request-rules',
    bug: "The JSON body parser registered for text/plain as well (as for navigator.sendBeacon's bodies): a JSON token request labelled text/plain gets a token.",
    install: (app) => readAs(app, (type) => (isTextPlain(type) ? 'application/json' : undefined)),
  },
  {
    id: 'token-untyped-body-read-as-json',
    clause: 'token.observed.request-rules',
    bug: "A body without a Content-Type read as JSON, the body parser's default type: a JSON token request with no Content-Type gets a token.",
    install: (app) => readAs(app, (type) => (type === undefined ? 'application/json' : undefined)),
  },
  {
    id: 'token-text-plain-read-as-form',
    clause: 'token.observed.request-rules',
    bug: 'The form parser registered for text/* (bodies of an HTML form with enctype text/plain): a form-encoded token request labelled text/plain gets a token.',
    install: (app) => readAs(app, (type) => (isTextPlain(type) ? FORM_MEDIA_TYPE : undefined)),
  },
  {
    id: 'token-endpoint-without-trailing-slash',
    clause: 'token.endpoint',
    bug: "The token endpoint routed without the trailing slash: /oauth/token/ (the spec's path) is answered 404, so no test gets a token (every test fails).",
    install(app) {
      const errors = capture(app, 'errors');
      app.wrapRoute(
        'token',
        (next) => async (exchange) => (exchange.path.endsWith('/') ? errors().reply('route_not_found') : next(exchange)),
      );
    },
  },
  {
    id: 'token-endpoint-refuses-json',
    clause: 'token.observed.json-request',
    bug: 'A token endpoint that parses form bodies only: a JSON request body is refused with 400 invalid_request (form-encoded requests still work).',
    install(app) {
      const errors = capture(app, 'errors');
      app.wrapRoute(
        'token',
        (next) => async (exchange) =>
          isJsonMediaType(exchange.headers['content-type'])
            ? errors().tokenReply('invalid_request', 'Content-Type must be application/x-www-form-urlencoded.')
            : next(exchange),
      );
    },
  },
  {
    id: 'token-json-sniffed-by-braces',
    clause: 'token.observed.json-request',
    bug: 'A JSON token request read as JSON only when its text starts with "{" and ends with "}" (a sniff without a trim), else refused 400 invalid_request: a JSON body followed by a line feed (what curl --data-binary @file sends), or after a space, gets no token, though RFC 8259 2 allows whitespace around the value; the same body without it gets one.',
    install(app) {
      const errors = capture(app, 'errors');
      app.wrapRoute('token', (next) => async (exchange) => {
        if (!isJsonMediaType(exchange.headers['content-type'])) return next(exchange);
        const text = exchange.body.toString('utf8');
        return text.trim() !== '' && text.trim() !== text
          ? errors().tokenReply('invalid_request', 'The request body is not valid JSON.')
          : next(exchange);
      });
    },
  },
  {
    id: 'token-errors-in-api-shape',
    clause: 'token.observed.errors',
    bug: "Token endpoint errors written by the management interface's error serializer: {statusCode, error: <reason phrase>, message} instead of {error, error_description}.",
    install: (app) =>
      editReplies(app, ['token'], (reply) => {
        if (reply.status < ERROR_FROM) return reply;
        const { error_description: message } = reply.body as { error_description?: string };
        return { ...reply, body: { statusCode: reply.status, error: reasonPhrase(reply.status), message } };
      }),
  },
  {
    id: 'token-type-lowercase-bearer',
    clause: 'token.observed.response',
    bug: 'token_type written in lower case, which RFC 6749 lets clients compare case-insensitively: the token response has token_type "bearer" instead of the real service\'s "Bearer".',
    install: (app) =>
      editReplies(app, ['token'], (reply) =>
        reply.status === OK ? { ...reply, body: { ...(reply.body as object), token_type: 'bearer' } } : reply,
      ),
  },
  {
    id: 'access-token-json-encoded-twice',
    clause: 'token.endpoint',
    bug: 'The access token JSON-encoded before it is put in the answer, which encodes it again: access_token is "\\"eyJ...\\"", the token in quotes, which is no JWT (a client that sends it is refused); token_type, expires_in and scope are unchanged.',
    install: (app) =>
      editReplies(app, ['token'], (reply) => {
        const body = reply.body as { access_token?: string } | undefined;
        if (reply.status !== OK || !body?.access_token) return reply;
        return { ...reply, body: { ...body, access_token: JSON.stringify(body.access_token) } };
      }),
  },
  {
    id: 'token-lifetime-3600',
    clause: 'token.lifetime',
    bug: 'Tokens issued for an hour, a common default: expires_in 3600 and exp = iat + 3600 instead of 86400.',
    install: (app) =>
      reissueTokens(app, { claims: (claims) => ({ ...claims, exp: (claims.iat ?? 0) + ONE_HOUR }), expiresIn: () => ONE_HOUR }),
  },
  {
    id: 'token-scope-claim-drops-first-scope',
    clause: 'token.scopes',
    bug: "An off-by-one in the code that writes the scope claim (a slice from 1): the claim leaves out the first granted scope (update:event_deliveries for the global client); authorization still uses the client's grants.",
    install(app) {
      reissueTokens(app, { claims: (claims) => ({ ...claims, scope: scopeOf(claims).split(' ').slice(1).join(' ') }) });
      editPrincipal(app, (principal) => ({ ...principal, scopes: new Set(principal.client.scopes) }));
    },
  },
  {
    id: 'token-narrowed-scopes-joined-with-commas',
    clause: 'token.scopes',
    bug: 'The scopes a request narrows its grant to written into the claim with the list\'s own toString(): scope=<two granted scopes> gets a token whose scope claim is "<first>,<second>", one unknown scope, refused by every operation; a request without a scope parameter gets its grant as before.',
    install: narrowedScopesJoinedWithCommas,
  },
  {
    id: 'token-scopes-asked-granted-if-any-is',
    clause: 'token.observed.granted-scopes',
    bug: 'The scopes asked for checked with some() where every() was meant: a request naming one granted scope and delete:users gets a token carrying both; delete:users alone is still refused.',
    install: askedGrantedIfAnyIs,
  },
  {
    id: 'token-carries-scope-outside-catalogue',
    clause: 'scopes.catalogue',
    bug: 'Tokens that still carry a legacy scope name: besides their granted scopes they hold update:event_redeliveries, which is not in the scope catalogue.',
    install: (app) => reissueTokens(app, { claims: (claims) => ({ ...claims, scope: `${scopeOf(claims)} ${LEGACY_SCOPE}`.trim() }) }),
  },
  {
    id: 'token-without-kid',
    clause: 'token.observed.claims',
    bug: "A signer configured with the key but not its id: access tokens have no kid in their JOSE header (they still verify with the tenant's one key).",
    install: (app) => reissueTokens(app, { header: ({ kid: _dropped, ...header }) => header }),
  },
  {
    id: 'token-answer-cacheable',
    clause: 'token.observed.response',
    bug: 'A token endpoint behind a framework that sets its own caching headers: the answer that holds the token has no Cache-Control: no-store (RFC 6749 5.1), so a shared cache on the way may keep it.',
    install: (app) => editReplies(app, ['token'], (reply) => (reply.status === OK ? withoutHeaders(reply, ['cache-control']) : reply)),
  },
  {
    id: 'basic-refusal-without-challenge',
    clause: 'token.observed.errors',
    bug: 'A token endpoint that answers every failed client authentication alike: a client that sent a wrong secret with HTTP Basic is refused 401 invalid_client without the WWW-Authenticate: Basic challenge RFC 6749 5.2 asks for.',
    install: (app) => editReplies(app, ['token'], (reply) => withoutHeaders(reply, ['www-authenticate'])),
  },
  {
    id: 'discovery-urls-joined-with-double-slash',
    clause: 'token.observed.discovery',
    bug: "A discovery document whose URLs join the issuer (with its trailing slash) and each endpoint's path (with its leading slash): token_endpoint and jwks_uri read https://<host>//oauth/token and https://<host>//.well-known/jwks.json, a path a strict client or a proxy does not take for the endpoint's.",
    install: (app) =>
      editReplies(app, ['discovery'], (reply) => {
        if (reply.status !== OK) return reply;
        const document = reply.body as { issuer: string; token_endpoint: string; jwks_uri: string };
        const joined = (url: string) => `${document.issuer}${new URL(url).pathname}`;
        return { ...reply, body: { ...document, token_endpoint: joined(document.token_endpoint), jwks_uri: joined(document.jwks_uri) } };
      }),
  },
  {
    id: 'discovery-host-from-x-forwarded-host-without-forwarded',
    clause: 'token.observed.discovery',
    bug: 'A discovery document built by a proxy-aware helper that reads RFC 7239 Forwarded first and falls back on X-Forwarded-Host: its Forwarded parser reads no quoted value, so a request carrying both (Forwarded: host="…") keeps the tenant\'s host, but one carrying X-Forwarded-Host alone is answered an issuer, token_endpoint and jwks_uri on that host.',
    install: (app) =>
      editReplies(app, ['discovery'], (reply, exchange) => {
        const { forwarded } = exchange.headers;
        const forwardedHost = exchange.headers['x-forwarded-host'];
        if (reply.status !== OK || forwarded !== undefined || typeof forwardedHost !== 'string') return reply;
        return discoveryMoved(reply, (parsed) => `${parsed.protocol}//${forwardedHost}`);
      }),
  },
  {
    id: 'discovery-built-from-forwarded-header',
    clause: 'token.observed.discovery',
    bug: "A discovery document built from the request's RFC 7239 Forwarded header (a framework's trust-proxy setting, turned on for the load balancer): a request with Forwarded: host=<another host>;proto=<scheme> is answered an issuer, token_endpoint and jwks_uri on that host and scheme; without the header the document is as before.",
    install: (app) =>
      editReplies(app, ['discovery'], (reply, exchange) => {
        const forwarded = exchange.headers.forwarded;
        if (reply.status !== OK || typeof forwarded !== 'string') return reply;
        const pairs = new Map(
          forwarded
            .split(',')[0]!
            .split(';')
            .map((pair) => pair.split('=').map((part) => part.trim().replace(/^"|"$/g, '')) as [string, string]),
        );
        return discoveryMoved(
          reply,
          (parsed) => `${pairs.get('proto') ?? parsed.protocol.slice(0, -1)}://${pairs.get('host') ?? parsed.host}`,
        );
      }),
  },
  {
    id: 'discovery-scheme-from-lone-forwarded-proto',
    clause: 'token.observed.discovery',
    bug: 'A discovery document built behind a guard against spoofed proxy headers that ignores them when more than one kind is sent, and trusts one sent alone: a request with only X-Forwarded-Proto: <the other scheme> is answered an issuer, token_endpoint and jwks_uri under that scheme; with X-Forwarded-Host or Forwarded beside it, or with none, the document is as before.',
    install: (app) =>
      editReplies(app, ['discovery'], (reply, exchange) => {
        const proto = exchange.headers['x-forwarded-proto'];
        const others = ['x-forwarded-host', 'forwarded'].some((name) => exchange.headers[name] !== undefined);
        if (reply.status !== OK || others || typeof proto !== 'string') return reply;
        return discoveryMoved(reply, (parsed) => `${proto}://${parsed.host}`);
      }),
  },
  {
    id: 'jwks-modulus-with-sign-byte',
    clause: 'token.observed.jwks',
    bug: 'The JWKS modulus exported from a signed big integer, which writes a zero octet first when the top bit is set: every published n starts with 0x00 (RFC 7518 6.3.1 wants the fewest octets); the key is unchanged and still verifies tokens.',
    install: (app) =>
      editReplies(app, ['jwks'], (reply) => {
        if (reply.status !== OK) return reply;
        const { keys } = reply.body as { keys: Array<{ n: string }> };
        const signed = (n: string) => Buffer.concat([Buffer.of(0), Buffer.from(n, 'base64url')]).toString('base64url');
        return { ...reply, body: { keys: keys.map((key) => ({ ...key, n: signed(key.n) })) } };
      }),
  },
  {
    id: 'jwks-members-base64-padded',
    clause: 'token.observed.jwks',
    bug: 'A JWKS written by a hand-rolled base64url encoder (base64 with "+" and "/" replaced, its "=" padding kept): n (256 octets) is published ending "==", e likewise where its length wants padding (RFC 7515 2 has base64url without padding); x5t is made elsewhere and is right; a lenient reader still takes the key, which still verifies tokens.',
    install: (app) =>
      editReplies(app, ['jwks'], (reply) => {
        if (reply.status !== OK) return reply;
        const { keys } = reply.body as { keys: Array<Record<string, unknown>> };
        const padded = (value: unknown) =>
          typeof value === 'string' ? Buffer.from(value, 'base64url').toString('base64').replace(/\+/g, '-').replace(/\//g, '_') : value;
        return { ...reply, body: { keys: keys.map((key) => ({ ...key, n: padded(key.n), e: padded(key.e) })) } };
      }),
  },
  {
    id: 'jwks-x5c-empty',
    clause: 'token.observed.jwks',
    bug: 'A JWKS exporter that writes the certificate chain of its key store, which keeps none for the signing key: every published key has x5c [] (and an x5t of no certificate), so a client that pins the certificate finds none.',
    install: (app) =>
      editReplies(app, ['jwks'], (reply) => {
        if (reply.status !== OK) return reply;
        const { keys } = reply.body as { keys: object[] };
        return { ...reply, body: { keys: keys.map((key) => ({ ...key, x5c: [] })) } };
      }),
  },
  {
    id: 'jwks-x5t-as-hex',
    clause: 'token.observed.jwks',
    bug: "The JWKS's x5t written as the certificate thumbprint a certificate store shows (the SHA-1 digest in 40 hexadecimal digits) where RFC 7517 4.8 wants the base64url of the digest: each key's x5t names its certificate in another encoding; kid, n, e and x5c are published as before.",
    install: (app) =>
      editReplies(app, ['jwks'], (reply) => {
        if (reply.status !== OK) return reply;
        const { keys } = reply.body as { keys: Array<{ x5t?: string }> };
        const hex = (x5t: string) => Buffer.from(x5t, 'base64url').toString('hex').toUpperCase();
        return { ...reply, body: { keys: keys.map((key) => (key.x5t === undefined ? key : { ...key, x5t: hex(key.x5t) })) } };
      }),
  },
  {
    id: 'jwks-answered-as-its-only-key',
    clause: 'token.observed.jwks',
    bug: "A JWKS endpoint that answers the key store's current key instead of the set: the body is the one JWK itself ({kty, n, e, kid, ...}) with no keys array (RFC 7517 section 5), so a JOSE client finds no key to verify the tokens with.",
    install: (app) =>
      editReplies(app, ['jwks'], (reply) => {
        if (reply.status !== OK) return reply;
        const { keys } = reply.body as { keys: object[] };
        return { ...reply, body: keys[0] };
      }),
  },
  {
    id: 'jwks-publishes-stale-kid',
    clause: 'token.observed.jwks',
    bug: 'A JWKS served from a cache made before the key was renamed: it publishes the signing key under another kid than the tokens carry, so it does not verify them.',
    install: (app) =>
      editReplies(app, ['jwks'], (reply) => {
        if (reply.status !== OK) return reply;
        const { keys } = reply.body as { keys: Array<{ kid: string }> };
        return { ...reply, body: { keys: keys.map((key) => ({ ...key, kid: `${key.kid}-previous` })) } };
      }),
  },
]);

/** A discovery document whose issuer, token_endpoint and jwks_uri keep their paths under the origin `origin` makes of each. */
function discoveryMoved(reply: Reply, origin: (url: URL) => string): Reply {
  const document = reply.body as { issuer: string; token_endpoint: string; jwks_uri: string };
  const moved = (url: string) => {
    const parsed = new URL(url);
    return `${origin(parsed)}${parsed.pathname}`;
  };
  return {
    ...reply,
    body: {
      ...document,
      issuer: moved(document.issuer),
      token_endpoint: moved(document.token_endpoint),
      jwks_uri: moved(document.jwks_uri),
    },
  };
}
