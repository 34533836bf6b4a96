// The credential's elements: the Authorization header, its scheme, the token as text, its JOSE
// header, its signature, its claims and the operation's scope token. A token the service did not
// issue as it is (a claim off by a character, a header member it does not use, a signature that
// fails) authorizes nothing; one that holds the scope among others, or an unknown extra claim,
// still does. Variations of the claims and header members are the valid token re-signed with the
// target's own key: only a test double gives it, so they are not applicable to a real tenant, where
// forgeries, the token alternatives of the target file and the configured roles stand in.
import type { Carry, ClauseCheck, CredentialSpec, JsonRecord, OperationCard, RequestTemplate, TokenEdit } from '../../cards/card.ts';
import { observed } from '../../observed.ts';
import { scopeActions, scopeCatalogue } from '../../scopes.ts';
import { audiencePath, tokenPath } from '../../openapi.ts';
import { schemaAt } from '../../limits.ts';
import { otherActionOf } from '../../cards/index.ts';
import { otherRsaAlgorithms } from '../../cards/card.ts';
import { allowedByScope, forbidden, refusedByObservedRule, status, unauthenticated, accepted, refused, observedError } from '../checks.ts';
import type { Element } from '../elements.ts';
import type { Expectation, Variant } from '../row.ts';
import { A_HEADER_VALUE, canonicalContext, headerNamed, withBody, type RequestContext } from '../template.ts';
import { equivalentsFor } from '../equivalents.ts';
import { wrappersFor } from '../wrappers.ts';
import { CASE_MAPPING_TWINS, swapCase, urlNearMisses, withCaseMappingTwin, withCharacterEscapedAt, withFullwidth } from '../values.ts';

/** The token endpoint's path without its slashes (oauth/token), as discovery names it after the issuer. */
const tokenEndpointPath = tokenPath.replace(/^\/+|\/+$/g, '');
/** Two minutes: four times the clock skew the mock allows, within the five minutes some libraries allow. */
/** The JSON booleans, which a language whose booleans are integers reads as the times 0 and 1. */
const BOOLEANS = [false, true] as const;

export const NEAR_MISS_SECONDS = 4 * observed.tokens.clock_skew_seconds.value;
/** How long a token near its expiry has left: less than the usual clock-skew leeways (30 s and up), more than a paced request waits. */
const EXPIRY_AHEAD_SECONDS = 20;
const HOUR = 3600;
/** Seconds past exp that are past the reference's clock tolerance by half of it (a leeway of a minute still takes them). */
const BEYOND_TOLERANCE_SECONDS = (observed.tokens.clock_skew_seconds.value * 3) / 2;
/** How long ago a token late in its life (an hour left of its day) was issued. */
const LATE_IN_LIFE_HOURS = 23;
/** Times a digit shorter and a digit longer than any time now: September 2001 and the year 2286. */
const NINE_DIGITS = 999_999_999;
const ELEVEN_DIGITS = 10_000_000_000;
/**
 * A fraction of a second added to a time claim: a NumericDate may be non-integer (RFC 7519 2), so
 * the time is judged as it is, though a check guarded by Number.isInteger (or BigInt) skips it.
 */
const FRACTION = 0.5;
const FRACTIONAL = 'with a fraction of a second (a non-integer NumericDate, RFC 7519 2)';

type Made = Variant & { expect: Expectation };

const withCredential = (credential: CredentialSpec) => (template: RequestTemplate) => ({ ...template, credential });
const carried = (carry: Carry) => withCredential({ kind: 'role', role: 'global', carry });
const edited = (edit: TokenEdit, carry?: Carry) => withCredential({ kind: 'role', role: 'global', edit, ...(carry ? { carry } : {}) });
const resignClaims = (claims: (c: JsonRecord, now: number) => JsonRecord) => edited({ resign: { claims } });
const resignHeader = (header: (h: JsonRecord) => JsonRecord) => edited({ resign: { header } });
const withAuthorization = (values: (token: string) => string[]) => carried({ authorization: values });

const SIGNING_KEY = [{ token: 'signing-key' as const }];

/** A variation made by re-signing with the target's key. */
/** The override headers naming the method of the other action on a scope's resource, where it has one. */
function overriddenForOtherAction(scope: string): Array<{ method: string; headers: Record<string, string[]> }> {
  const other = otherActionOf(scope);
  // The first HTTP verb that names the action (VERB_ALIASES, as a REST route maps them).
  const verb = VERB_ALIASES[other.slice(0, other.indexOf(':'))]?.[0];
  if (verb === undefined) return [];
  const method = verb.toUpperCase();
  return [{ method, headers: { 'x-http-method-override': [method], 'x-http-method': [method], 'x-method-override': [method] } }];
}

/** The variant's change, on a request whose body is the card's fullest (where the card has a body). */
function withFullestBody(card: OperationCard, apply: Made['apply']): Made['apply'] {
  if (!card.body) return apply;
  return (template, context) => {
    const global = context.clients.global ?? canonicalContext.clients.global!;
    return withBody(apply(template, context), { json: card.body!.full(context.fixtures, { global }) });
  };
}

function resigned(variant: Omit<Made, 'resigned'>): Made {
  return { ...variant, needs: [...SIGNING_KEY, ...(variant.needs ?? [])], resigned: true };
}

/**
 * The variant with a Date header (RFC 9110 6.6.1, an IMF-fixdate) `offset` seconds from the time
 * the request is made: a client's clock, which the server's checks of the token's time ignore.
 */
function dated(variant: Made, offset: number): Made {
  return {
    ...variant,
    apply: (template, context) => {
      const made = variant.apply(template, context);
      const date = new Date((Math.floor(Date.now() / 1000) + offset) * 1000).toUTCString();
      return { ...made, headers: { ...made.headers, date: [date] } };
    },
  };
}

/** An IMF-fixdate (RFC 9110 5.6.7) from while the token was valid: midway between its iat and exp, or a minute before exp. */
function dateWhileValid(token: string): string {
  let claims: JsonRecord = {};
  try {
    claims = segmentJson(token, 1) as JsonRecord;
  } catch {
    // Not a JWS of JSON claims: the Date header says the time now, and the token is refused all the same.
  }
  const { exp, iat } = claims;
  const seconds =
    typeof exp !== 'number' ? Math.floor(Date.now() / 1000) : typeof iat === 'number' && iat < exp ? Math.floor((iat + exp) / 2) : exp - 60;
  return new Date(seconds * 1000).toUTCString();
}

/** A NumericDate written as an ISO 8601 date string (another type: RFC 7519 2 has a number). */
function isoDate(numericDate: unknown): string {
  return new Date(Number(numericDate) * 1000).toISOString();
}

/** A claims set with one member set, or removed where `value` is undefined. */
function claimSet(claims: JsonRecord, member: string, value: unknown): JsonRecord {
  const { [member]: _old, ...rest } = claims;
  return value === undefined ? rest : { ...rest, [member]: value };
}

/**
 * The Authorization header's variations, and the token carried elsewhere.
 * Long: one entry per variation, read top to bottom as `--list` prints them.
 */
/** Headers that name the client's address, each naming an internal one: a private network's, a loopback. */
const INTERNAL_CALLER_HEADERS: ReadonlyArray<[string, string, string]> = [
  ['private-x-forwarded-for', 'x-forwarded-for', '10.0.0.7'],
  ['private-x-real-ip', 'x-real-ip', '192.168.1.7'],
  ['private-forwarded', 'forwarded', 'for=172.16.0.7'],
  ['loopback-x-forwarded-for', 'x-forwarded-for', '127.0.0.1'],
];

/**
 * Absent, the request saying it comes from inside (a private or loopback address in a header
 * anyone can send): every request carries the token (spec 5 rule 1), though a proxy that lets
 * internal callers through without one, taking the address from such a header, answers it. The
 * first runs everywhere, the others against test doubles.
 */
function internalCallerVariants(none: ClauseCheck[]): Made[] {
  return INTERNAL_CALLER_HEADERS.map(([key, header, value], index): Made => ({
    operator: 'absent',
    key: `absent-from-${key}`,
    says: `absent, the request saying it comes from an internal address (${header}: ${value})`,
    apply: (template) => withAuthorization(() => [])({ ...template, headers: { ...template.headers, [header]: [value] } }),
    expect: { checks: none, source: 'spec 5 rule 1: every request carries the token, wherever it says it comes from' },
    ...(index > 0 ? { extended: true } : {}),
  }));
}

/**
 * Headers a gateway or an authenticating proxy sets once it has authenticated the caller, naming who
 * it is (Kong's X-Consumer-*, oauth2-proxy's X-Auth-Request-User, the cloud load balancers' and App
 * Service's identity headers, the common X-Client-Id and X-User-Id): sent by the client itself.
 */
const GATEWAY_IDENTITY_HEADERS = [
  'x-authenticated-client-id',
  'x-authenticated-userid',
  'x-client-id',
  'x-consumer-custom-id',
  'x-consumer-username',
  'x-auth-request-user',
  'x-forwarded-user',
  'x-remote-user',
  'remote-user',
  'x-user-id',
  'x-amzn-oidc-identity',
  'x-goog-authenticated-user-id',
  'x-ms-client-principal-id',
  'x-jwt-sub',
];

/** Headers a mesh or gateway forwards a verified token's claims in (base64url JSON), or the token itself (x-jwt-assertion). */
const CLAIM_HEADERS = ['x-jwt-payload', 'x-jwt-claims', 'x-apigateway-api-userinfo', 'x-endpoint-api-userinfo', 'x-jwt-assertion'];

/**
 * Absent, the claims of a valid token in the headers a mesh or gateway forwards after verifying
 * one (Istio's outputPayloadToHeader, Google's ESP, WSO2's JWT assertion): every request carries
 * the token itself (spec 5 rule 1), though a service that reads its caller from those headers,
 * behind a sidecar that lets a request without a token through, serves it.
 */
function claimHeadersVariant(none: ClauseCheck[]): Made {
  return {
    operator: 'absent',
    key: 'absent-claims-in-gateway-headers',
    says: `absent, a valid token's claims in the headers a mesh or gateway forwards them in (${CLAIM_HEADERS.join(', ')})`,
    apply: carried({
      authorization: () => [],
      headers: (token) =>
        Object.fromEntries(CLAIM_HEADERS.map((name) => [name, name === 'x-jwt-assertion' ? token : (token.split('.')[1] ?? '')])),
    }),
    expect: {
      checks: none,
      source: 'spec 5 rule 1: every request carries the token in Authorization, whatever headers carry its claims',
    },
    extended: true,
  };
}

/**
 * Absent, the request naming the global client in every header a gateway sets after authenticating
 * a caller: every request carries the token (spec 5 rule 1), though a service that trusts those
 * headers without a gateway stripping what clients send serves the client they name. One request
 * carrying them all; the subject form (<id>@clients) in the headers that name a subject.
 */
function gatewayIdentityVariant(none: ClauseCheck[]): Made {
  return {
    operator: 'absent',
    key: 'absent-naming-the-client',
    says: `absent, the request naming the global client in the headers a gateway sets after authenticating a caller (${GATEWAY_IDENTITY_HEADERS.join(', ')})`,
    apply: (template, context) => {
      const id = context.clients.global ?? 'global-client';
      const named = GATEWAY_IDENTITY_HEADERS.map((name): [string, string[]] => [name, [/sub|user/.test(name) ? `${id}@clients` : id]]);
      return withAuthorization(() => [])({ ...template, headers: { ...template.headers, ...Object.fromEntries(named) } });
    },
    expect: { checks: none, source: 'spec 5 rule 1: every request carries the token, whatever headers name its caller' },
  };
}

/** The credential left out of Authorization and carried where some framework also looks for one. */
function relocatedVariants(card: OperationCard): Made[] {
  const located = (where: NonNullable<Carry['elsewhere']>, says: string): Made => ({
    operator: 'placement',
    key: where,
    says,
    apply: carried({ authorization: () => [], elsewhere: where }),
    expect: { checks: unauthenticated(card), source: 'spec 5 rule 1: the token travels in the Authorization header' },
  });
  return [
    located('query', 'left out, with the token in the query string (access_token)'),
    // RFC 6750 2.2's form body, where the method has a body.
    ...(card.spec.method !== 'GET' ? [located('form', 'left out, with the token in a form-encoded body (access_token)')] : []),
    located('x-forwarded-authorization', 'left out, with the token in X-Forwarded-Authorization'),
    // Proxy-Authorization is for the proxy in between (RFC 9110 11.7.1), never the origin's credential.
    located('proxy-authorization', 'left out, with the token in Proxy-Authorization'),
    located('cookie', 'left out, with the token in a cookie (access_token)'),
    // Where frameworks and shims look when Authorization is absent: a WebSocket subprotocol list
    // (browsers cannot set Authorization on an upgrade), an application's own header.
    located('websocket-protocol', 'left out, with the token in Sec-WebSocket-Protocol (access_token, <token>)'),
    located('x-access-token', 'left out, with the token in X-Access-Token'),
  ];
}

function authorizationVariants(card: OperationCard): Made[] {
  const none = unauthenticated(card, { error: 'missing_authentication' });
  return [
    {
      operator: 'absent',
      key: 'absent',
      says: 'absent',
      apply: withAuthorization(() => []),
      expect: { checks: none, source: 'spec 5 rule 1' },
    },
    gatewayIdentityVariant(none),
    claimHeadersVariant(none),
    {
      operator: 'empty',
      key: 'empty',
      says: 'present with no value',
      apply: withAuthorization(() => ['']),
      expect: { checks: unauthenticated(card), source: 'spec 5 rule 1' },
    },
    {
      operator: 'duplicate',
      key: 'second-not-a-jwt',
      says: 'twice, the second not a JWT',
      extended: true,
      apply: withAuthorization((token) => [`Bearer ${token}`, 'Bearer not-a-jwt']),
      expect: {
        checks: [{ clause: 'auth.authorization.single', outcome: observedError('bad_authorization_header') }],
        source: 'observed (inferred): Authorization is a singleton field (RFC 9110 5.3)',
      },
    },
    {
      // credentials = auth-scheme [ 1*SP token68 ] (RFC 9110 11.4, RFC 6750 2.1): a word after the
      // token makes no credential; a server that splits on spaces and takes the second part reads one.
      operator: 'extra-part',
      key: 'word-after-token',
      says: 'with a word after the token (Bearer <token> x)',
      apply: withAuthorization((token) => [`Bearer ${token} x`]),
      expect: { checks: unauthenticated(card), source: 'spec 5 rule 1: Bearer followed by the token, and nothing else' },
    },
    {
      // One field value holding a list (as a proxy folds two fields into one, RFC 9110 5.3): no
      // credential of the grammar (RFC 9110 11.6.2 allows one), though a reader that splits on the
      // comma and takes the first element finds the token.
      operator: 'extra-part',
      key: 'folded-list',
      says: 'followed by ", Bearer x" (two credentials folded into one field)',
      apply: withAuthorization((token) => [`Bearer ${token}, Bearer x`]),
      expect: { checks: unauthenticated(card), source: 'spec 5 rule 1: Bearer followed by the token, and nothing else' },
    },
    {
      // b64token is no quoted-string (RFC 6750 2.1): a parser of auth-params that takes quotes off reads one.
      operator: 'encoding',
      key: 'quoted-token',
      says: 'with the token in double quotes (Bearer "<token>")',
      apply: withAuthorization((token) => [`Bearer "${token}"`]),
      expect: {
        checks: unauthenticated(card),
        source: 'spec 5 rule 1: Bearer followed by the token (RFC 6750 2.1: a b64token, no quotes)',
      },
    },
    {
      // A client that stored the token endpoint's whole answer sends it as it is: no b64token
      // (RFC 6750 2.1), though a parser that falls back to JSON finds the token inside.
      operator: 'encoding',
      key: 'token-endpoint-answer',
      says: "carrying the token endpoint's whole JSON answer in place of the token",
      apply: withAuthorization((token) => [`Bearer ${JSON.stringify({ access_token: token, token_type: 'Bearer' })}`]),
      expect: { checks: unauthenticated(card), source: 'spec 5 rule 1: Bearer followed by the token, and nothing else' },
    },
    ...internalCallerVariants(none),
    ...relocatedVariants(card),
  ];
}

function schemeVariants(card: OperationCard): Made[] {
  const no = (key: string, says: string, values: (token: string) => string[], operator: Made['operator']): Made => ({
    operator,
    key,
    says,
    apply: withAuthorization(values),
    expect: { checks: unauthenticated(card), source: 'spec 5 rule 1: "Bearer" followed by the token' },
  });
  const unknown = (key: string, says: string, values: (token: string) => string[], operator: Made['operator']): Made => ({
    operator,
    key,
    says,
    apply: withAuthorization(values),
    expect: {
      none: 'an auth scheme is case-insensitive and its separator may be any spaces (RFC 9110 11.1); what the service accepts is not known',
    },
  });
  return [
    no('absent', 'absent (the token alone)', (t) => [t], 'absent'),
    no('no-space', 'without the space after it', (t) => [`Bearer${t}`], 'truncate'),
    {
      // credentials = "Bearer" 1*SP b64token (RFC 6750 2.1): spaces, not a tab.
      ...no('tab', 'followed by a tab instead of a space', (t) => [`Bearer\t${t}`], 'whitespace'),
      expect: {
        checks: unauthenticated(card),
        source: 'spec 5 rule 1: "Bearer" followed by the token, after one or more spaces (RFC 6750 2.1: 1*SP; a tab is none)',
      },
    },
    no('basic', 'replaced by Basic', (t) => [`Basic ${t}`], 'near-value'),
    // The token as the password of HTTP Basic credentials (a user name and the token, as git hosts
    // take tokens): Basic is no bearer credential (RFC 6750 2.1), though a Basic validator that
    // checks the password as a token serves it.
    {
      ...no(
        'basic-password',
        'replaced by Basic, the token as its password (x-access-token:<token>)',
        (t) => [`Basic ${Buffer.from(`x-access-token:${t}`, 'utf8').toString('base64')}`],
        'near-value',
      ),
      extended: true,
    },
    { ...no('token', 'replaced by Token', (t) => [`Token ${t}`], 'near-value'), extended: true },
    no('jwt', 'replaced by JWT', (t) => [`JWT ${t}`], 'near-value'),
    // Other token schemes of the OAuth family: the draft's "OAuth" (draft-ietf-oauth-v2-10, which
    // legacy extractors still read), DPoP (RFC 9449, a proof-of-possession token that needs its
    // proof) and MAC: none is Bearer (RFC 6750 2.1).
    { ...no('oauth', 'replaced by OAuth (the scheme of the OAuth 2.0 drafts)', (t) => [`OAuth ${t}`], 'near-value'), extended: true },
    { ...no('dpop', 'replaced by DPoP, without a proof', (t) => [`DPoP ${t}`], 'near-value'), extended: true },
    { ...no('mac', 'replaced by MAC', (t) => [`MAC ${t}`], 'near-value'), extended: true },
    // "Bearer Bearer <token>": the credential is the word after the scheme (RFC 6750 2.1), here
    // "Bearer", no token; a reader that strips the scheme as often as it repeats finds the token.
    { ...no('twice', 'written twice (Bearer Bearer <token>)', (t) => [`Bearer Bearer ${t}`], 'duplicate'), extended: true },
    {
      operator: 'case',
      key: 'lower-case',
      says: 'in lower case (bearer)',
      apply: withAuthorization((t) => [`bearer ${t}`]),
      expect: {
        checks: [{ clause: 'auth.schemes', outcome: accepted }],
        source: 'spec 5 rule 2: the HTTP bearer scheme, whose name is case-insensitive (RFC 9110 11.1)',
      },
    },
    ...otherCaseSpellings(),
    unknown('two-spaces', 'followed by two spaces', (t) => [`Bearer  ${t}`], 'whitespace'),
    ...otherSchemeSeparators(card),
    ...otherRegisteredSchemes(card),
  ];
}

/**
 * "Bearer" in capitals and in mixed case: the same scheme (RFC 9110 11.1), though a reader that
 * knows "Bearer" and "bearer" alone (two spellings compared as they are) refuses them.
 */
function otherCaseSpellings(): Made[] {
  return (
    [
      ['upper-case', 'in capitals (BEARER)', 'BEARER'],
      ['mixed-case', 'in mixed case (bEARER)', 'bEARER'],
    ] as const
  ).map(([key, says, scheme]) => ({
    operator: 'case',
    key,
    says,
    apply: withAuthorization((t) => [`${scheme} ${t}`]),
    expect: {
      checks: [{ clause: 'auth.schemes', outcome: accepted }],
      source: 'spec 5 rule 2: the HTTP bearer scheme, whose name is case-insensitive (RFC 9110 11.1)',
    },
    extended: true,
  }));
}

/**
 * Every other scheme of the IANA HTTP Authentication Scheme Registry, and the vendor schemes that
 * API gateways take tokens under, each followed by the valid token: none is Bearer (RFC 6750 2.1),
 * though a reader that takes the word after any scheme, or a gateway's list of schemes it maps to
 * a bearer token, serves the request.
 */
function otherRegisteredSchemes(card: OperationCard): Made[] {
  return [
    'Concealed',
    'Digest',
    'GNAP',
    'HOBA',
    'Mutual',
    'Negotiate',
    'NTLM',
    'PrivateToken',
    'SCRAM-SHA-256',
    'vapid',
    'AWS4-HMAC-SHA256',
    'Hawk',
    'ApiKey',
    'SSWS',
  ].map((scheme) => ({
    operator: 'near-value',
    key: `scheme-${scheme.toLowerCase()}`,
    says: `replaced by ${scheme}`,
    apply: withAuthorization((t) => [`${scheme} ${t}`]),
    expect: { checks: unauthenticated(card), source: 'spec 5 rule 1: "Bearer" followed by the token' },
    extended: true,
  }));
}

/**
 * The scheme separated from the token by something other than spaces: "Bearer" 1*SP b64token
 * (RFC 6750 2.1) has no other separator, though a reader that takes the scheme's end loosely (a
 * pattern like /^Bearer[:\s]+/, a split on " " or "=", a list parser that drops commas, a split on
 * any Unicode white space) finds the token after each.
 */
function otherSchemeSeparators(card: OperationCard): Made[] {
  return (
    [
      ['colon-space', 'followed by a colon and a space (Bearer: <token>)', ': '],
      ['colon', 'followed by a colon instead of a space (Bearer:<token>)', ':'],
      ['equals', 'followed by "=" instead of a space (Bearer=<token>)', '='],
      ['comma-space', 'followed by a comma and a space (Bearer, <token>)', ', '],
      // White space past ASCII that Unicode-aware splits take for a space (Python's str.split(),
      // Java's Character.isSpaceChar): bytes 0xA0 and 0x85 of a header read as Latin-1.
      ['no-break-space', 'followed by a no-break space instead of a space (Bearer\\u00a0<token>)', '\u00a0'],
      ['next-line', 'followed by a next-line character (U+0085) instead of a space', '\u0085'],
    ] as const
  ).map(([key, says, separator]) => ({
    operator: 'near-value',
    key,
    says,
    apply: withAuthorization((t) => [`Bearer${separator}${t}`]),
    expect: {
      checks: unauthenticated(card),
      source: 'spec 5 rule 1: "Bearer" followed by the token, after one or more spaces (RFC 6750 2.1: 1*SP, no other separator)',
    },
    extended: true,
  }));
}

function tokenTextVariants(card: OperationCard): Made[] {
  const text = (key: string, says: string, change: (t: string) => string, operator: Made['operator'], signature: boolean): Made => ({
    operator,
    key,
    says,
    apply: edited({ text: change }),
    expect: { checks: unauthenticated(card, { signature }), source: 'spec 7: the token is invalid, or its signature fails validation' },
  });
  return [
    text('empty', 'empty', () => '', 'empty', false),
    text('truncate', 'without its last character', (t) => t.slice(0, -1), 'truncate', true),
    text('extra-character', 'with one character added', (t) => `${t}A`, 'extra-part', true),
    { ...text('fourth-segment', 'with a fourth segment', (t) => `${t}.AAAA`, 'extra-part', false), extended: true },
    ...emptySegments(card),
    { ...text('case', 'in the other letter case', swapCase, 'case', false), extended: true },
    // A b64token has no "%" (RFC 6750 2.1): the token percent-encoded is another credential, though
    // a server that URL-decodes the credential (for tokens copied out of a URL) reads the valid one.
    text('dots-percent-encoded', 'with its dots percent-encoded (%2E)', (t) => t.replaceAll('.', '%2E'), 'encoding', false),
    {
      ...text(
        'character-percent-encoded',
        'with the first character of its payload percent-encoded (%XX)',
        withCharacterPercentEncoded,
        'encoding',
        false,
      ),
      extended: true,
    },
    {
      operator: 'whitespace',
      key: 'trailing-space',
      says: 'followed by a space',
      apply: edited({ text: (t) => `${t} ` }),
      expect: { none: 'HTTP strips whitespace around a header value (RFC 9110 5.5): the service reads the valid token' },
    },
    ...paddedTokens(card),
    ...jsonSerialisedTokens(card),
    ...whitespaceInside(card),
    ...foreignCharacters(card),
    {
      operator: 'other-owner',
      key: 'non-global-client',
      says: 'of a client that is not global',
      apply: withCredential({ kind: 'role', role: 'non_global' }),
      needs: [{ role: 'non_global' }],
      expect: card.globalClient
        ? {
            checks: [
              { clause: card.globalClient.clause, outcome: refused },
              { clause: card.globalClient.statusClause, outcome: status(401) },
              { clause: 'errors.401.message', outcome: observedError('client_not_global') },
            ],
            source: 'spec 5 rule 4 and 7',
          }
        : { none: 'whether a client that is not global may use this operation is not known (observed: exact rule inferred)' },
    },
    ...(card.globalClient ? [nonGlobalWithGatewayHeaders(card.globalClient)] : []),
  ];
}

/** Claims a platform maps a token's subject to, or reads as it: .NET's name identifier (its URI and JWT name) and Entra ID's object id. */
const SUBJECT_ALIASES = ['http://schemas.xmlsoap.org/ws/2005/05/identity/claims/nameidentifier', 'nameid', 'oid'];

/**
 * Headers a gateway's authorizer may set once it has judged a caller global or privileged (Envoy's
 * ext_authz and Lambda authorizers pass such verdicts on as headers), sent by the client itself.
 */
const GATEWAY_PRIVILEGE_HEADERS = [
  'x-client-global',
  'x-global-client',
  'x-is-global',
  'x-client-is-global',
  'x-authz-global',
  'x-privileged',
];

/**
 * The token of a client that is not global, the request saying in those headers that it is: the
 * global-client rule (spec 5 rule 4) reads the token, and a header the client sends is no token.
 */
function nonGlobalWithGatewayHeaders(rule: NonNullable<OperationCard['globalClient']>): Made {
  return {
    operator: 'other-owner',
    key: 'non-global-client-gateway-headers',
    says: `of a client that is not global, the request saying it is in the headers a gateway's authorizer sets (${GATEWAY_PRIVILEGE_HEADERS.join(', ')}: true)`,
    apply: (template) => ({
      ...withCredential({ kind: 'role', role: 'non_global' })(template),
      headers: { ...template.headers, ...Object.fromEntries(GATEWAY_PRIVILEGE_HEADERS.map((name) => [name, ['true']])) },
    }),
    needs: [{ role: 'non_global' }],
    expect: {
      checks: [
        { clause: rule.clause, outcome: refused },
        { clause: rule.statusClause, outcome: status(401) },
      ],
      source: 'spec 5 rule 4 and 7: the token says whether its client is global, not a header the client sends',
    },
    extended: true,
  };
}

/**
 * White space inside the token: a b64token has none (RFC 6750 2.1) and neither has a compact JWS
 * (RFC 7515 7.1), so the credential ends at it and the rest is no part of the grammar, though a
 * server that strips white space out of the credential (for tokens pasted from a wrapped
 * terminal or mail) reads the valid token. A space and a tab, just after a dot (where a wrapped
 * line breaks) and in the middle of a segment; the space in the payload's middle runs on a tenant.
 */
function whitespaceInside(card: OperationCard): Made[] {
  const afterFirstDot = (t: string, inserted: string) => `${t.slice(0, t.indexOf('.') + 1)}${inserted}${t.slice(t.indexOf('.') + 1)}`;
  const inPayload = (t: string, inserted: string) => {
    const [from, to] = [t.indexOf('.') + 1, t.lastIndexOf('.')];
    const at = from + Math.floor((to - from) / 2);
    return `${t.slice(0, at)}${inserted}${t.slice(at)}`;
  };
  return (
    [
      ['space-inside-segment', 'with a space in the middle of its payload segment', (t: string) => inPayload(t, ' '), false],
      ['space-after-dot', 'with a space just after its first dot', (t: string) => afterFirstDot(t, ' '), true],
      ['tab-inside-segment', 'with a tab in the middle of its payload segment', (t: string) => inPayload(t, '\t'), true],
      ['tab-after-dot', 'with a tab just after its first dot', (t: string) => afterFirstDot(t, '\t'), true],
      // In the header and the signature too: a base64 decoder that skips white space (Node's
      // Buffer.from(s, 'base64url')) reads the same bytes, and neither is part of the signed text
      // a verifier may rebuild from the decoded header, nor of the signature's bytes.
      ['space-inside-header', 'with a space in the middle of its header segment', (t: string) => inSegment(t, 0, ' '), true],
      ['tab-inside-header', 'with a tab in the middle of its header segment', (t: string) => inSegment(t, 0, '\t'), true],
      ['space-inside-signature', 'with a space in the middle of its signature segment', (t: string) => inSegment(t, 2, ' '), true],
      ['tab-inside-signature', 'with a tab in the middle of its signature segment', (t: string) => inSegment(t, 2, '\t'), true],
    ] as const
  ).map(([key, says, change, extended]) => ({
    operator: 'whitespace',
    key,
    says,
    apply: edited({ text: change }),
    expect: {
      checks: unauthenticated(card),
      source: 'spec 5 rule 1: Bearer followed by the token (RFC 6750 2.1: a b64token, which has no white space)',
    },
    ...(extended ? { extended } : {}),
  }));
}

/** The token with `inserted` in the middle of its segment `at` (0 the header, 1 the payload, 2 the signature). */
function inSegment(token: string, at: number, inserted: string): string {
  const segments = token.split('.');
  const segment = segments[at] ?? '';
  const middle = Math.floor(segment.length / 2);
  segments[at] = `${segment.slice(0, middle)}${inserted}${segment.slice(middle)}`;
  return segments.join('.');
}

/**
 * A character outside the base64url alphabet (RFC 4648 5) inside a segment: no compact JWS
 * (RFC 7515 7.1), and "!" and "*" no b64token either (RFC 6750 2.1), though a base64 decoder that
 * skips what it cannot read (Node's Buffer.from(s, 'base64url')) reads the same bytes, so a
 * verifier that decodes the signature so, or re-encodes the decoded segments before checking the
 * signature, accepts it. Each of "!", "*" and "~" (a b64token character, no base64url one) in the
 * middle of each segment.
 */
function foreignCharacters(card: OperationCard): Made[] {
  const segments = [
    ['header', 0],
    ['payload', 1],
    ['signature', 2],
  ] as const;
  const characters = [
    ['exclamation', '!'],
    ['asterisk', '*'],
    ['tilde', '~'],
  ] as const;
  return segments.flatMap(([segment, at]) =>
    characters.map(([name, character]): Made => ({
      operator: 'encoding',
      key: `${name}-inside-${segment}`,
      says: `with "${character}" (outside the base64url alphabet) in the middle of its ${segment} segment`,
      apply: edited({ text: (t) => inSegment(t, at, character) }),
      expect: {
        checks: unauthenticated(card),
        source: 'spec 7: the token is invalid (RFC 7515 7.1 and RFC 4648 5: each segment is base64url, which has no such character)',
      },
      extended: true,
    })),
  );
}

/**
 * A compact JWS has exactly three parts and two dots (RFC 7515 7.1), and a b64token may hold a dot
 * anywhere (RFC 6750 2.1), so an empty part is no part of the grammar that a server can lean on: the
 * token with a fourth, empty part after a trailing dot, an empty part before a leading dot, and an
 * empty part between two dots is each a credential of four parts, though a split that filters empty
 * parts (split(".").filter(Boolean)) reads the valid token in each.
 */
function emptySegments(card: OperationCard): Made[] {
  return (
    [
      ['trailing-dot', 'followed by a dot (a fourth, empty part)', (t: string) => `${t}.`],
      ['leading-dot', 'preceded by a dot (an empty first part)', (t: string) => `.${t}`],
      [
        'doubled-dot',
        'with its last dot doubled (an empty part before the signature)',
        (t: string) => `${t.slice(0, t.lastIndexOf('.'))}.${t.slice(t.lastIndexOf('.'))}`,
      ],
    ] as const
  ).map(([key, says, change]) => ({
    operator: 'extra-part',
    key,
    says,
    apply: edited({ text: change }),
    expect: { checks: unauthenticated(card), source: 'spec 7: the token is invalid (RFC 7515 7.1: three parts, separated by two dots)' },
    extended: true,
  }));
}

/**
 * A compact JWS is base64url with its trailing "=" omitted (RFC 7515 2, 7.1): the same bytes
 * with padding are no JWS, as the standard alphabet is not (the signature's standard-base64
 * row), though a decoder that skips padding reads them. Every segment padded, and the signature
 * alone (a verifier that trims the token's end only).
 */
function paddedTokens(card: OperationCard): Made[] {
  return (
    [
      [
        'base64-padding',
        'with base64 padding on its segments',
        (t: string) =>
          t
            .split('.')
            .map((segment, at) => padded(segment, at === 2))
            .join('.'),
      ],
      [
        'signature-padding',
        'with base64 padding on its signature segment alone',
        (t: string) => `${t.slice(0, t.lastIndexOf('.'))}.${padded(t.slice(t.lastIndexOf('.') + 1), true)}`,
      ],
    ] as const
  ).map(([key, says, change]) => ({
    operator: 'encoding',
    key,
    says,
    apply: edited({ text: change }),
    expect: {
      checks: unauthenticated(card),
      source: 'spec 7: the token is invalid (RFC 7515 2 and 7.1: base64url with the trailing "=" omitted)',
    },
    extended: true,
  }));
}

/**
 * The token's three parts in the JWS JSON serialisations (RFC 7515 7.2), flattened and general: the
 * same header, payload and signature, but a JWT is a JWS in the compact serialisation (RFC 7519 1),
 * and a bearer credential is a b64token (RFC 6750 2.1), which has no braces or quotes; a verifier
 * that hands a credential it cannot read as compact to a general JWS library (as for signed
 * webhooks) verifies them. The flattened form is what such libraries write by default.
 */
function jsonSerialisedTokens(card: OperationCard): Made[] {
  const parts = (token: string) => {
    const [header = '', payload = '', signature = ''] = token.split('.');
    return { header, payload, signature };
  };
  return (
    [
      [
        'json-flattened',
        'in the flattened JWS JSON serialisation ({"protected", "payload", "signature"})',
        (t: string) => {
          const { header, payload, signature } = parts(t);
          return JSON.stringify({ protected: header, payload, signature });
        },
        false,
      ],
      [
        'json-general',
        'in the general JWS JSON serialisation ({"payload", "signatures": [{"protected", "signature"}]})',
        (t: string) => {
          const { header, payload, signature } = parts(t);
          return JSON.stringify({ payload, signatures: [{ protected: header, signature }] });
        },
        true,
      ],
    ] as const
  ).map(([key, says, change, extended]) => ({
    operator: 'encoding',
    key,
    says,
    apply: edited({ text: change }),
    expect: {
      checks: unauthenticated(card),
      source:
        'spec 5 rule 1: Bearer followed by the token, a JWT (RFC 7519 1: a JWS in the compact serialisation; RFC 6750 2.1: a b64token)',
    },
    ...(extended ? { extended } : {}),
  }));
}

// Long: one entry per variation of a JOSE header member, as the catalogue lists them.
function joseVariants(card: OperationCard, member: string): Made[] {
  const ruled = (key: string, says: string, operator: Made['operator'], header: (h: JsonRecord) => JsonRecord): Made =>
    resigned({
      operator,
      key,
      says,
      apply: resignHeader(header),
      expect: {
        checks: refusedByObservedRule('auth.token.header'),
        source: 'observed: RS256 tokens with the kid of a published key (RFC 8725 3.1)',
      },
    });
  const unknown = (key: string, says: string, operator: Made['operator'], header: (h: JsonRecord) => JsonRecord): Made =>
    resigned({
      operator,
      key,
      says,
      apply: resignHeader(header),
      expect: { none: 'typ is optional and verifiers need not check it (RFC 7519 5.1); the service answer is not known' },
    });
  const set = (value: unknown) => (h: JsonRecord) => claimSet(h, member, value);
  // The member given twice, the valid value first and another last: RFC 7515 4 has a parser refuse
  // the header or keep the last member, and either way the token is invalid, though a decoder that
  // keeps the first (a proplist, a streaming reader) reads the valid one.
  const twice = (other: unknown, says: string): Made =>
    resigned({
      operator: 'duplicate',
      key: 'twice-other-last',
      says: `twice, the valid value first and ${says} last`,
      apply: edited({ resign: { headerText: (h) => memberTwice(h, member, other) } }),
      expect: {
        checks: unauthenticated(card, { signature: true }),
        source: 'spec 7: the token is invalid (RFC 7515 4: a header with a member twice is refused, or its last member taken)',
      },
    });
  // Its first character written %XX: another string (RFC 7515 4.1.1, 4.1.4 compare them as they
  // are), though a key service reached by a URL made of the kid, or a normaliser of URIs, decodes it.
  const escaped = ruled('percent-encoded', 'with its first character percent-encoded (%XX)', 'encoding', (h) =>
    claimSet(h, member, withFirstPercentEncoded(String(h[member]))),
  );
  switch (member) {
    case 'alg':
      return [
        {
          operator: 'forgery',
          key: 'none',
          says: 'none, with no signature',
          apply: edited({ forge: 'alg-none' }),
          expect: { checks: unauthenticated(card), source: 'spec 7: an unsigned token is invalid' },
        },
        {
          operator: 'forgery',
          key: 'hs256-public-key',
          says: 'HS256, keyed with the published public key',
          apply: edited({ forge: 'hs256-public-key' }),
          needs: [{ jwks: true }],
          expect: { checks: unauthenticated(card, { signature: true }), source: 'spec 7: the signature fails validation' },
        },
        // alg is a case-sensitive string naming a registered algorithm (RFC 7515 4.1.1, RFC 7518 3.1):
        // RS256 with a space or tab beside it, cut short, or in a list names none, so the JWS cannot
        // be validated (RFC 7515 5.2), though a decoder that trims or unwraps its strings first reads RS256.
        ...(
          [
            ['whitespace', 'followed by a space', 'whitespace', `${observed.tokens.alg} `],
            ['whitespace-leading', 'preceded by a tab', 'whitespace', `\t${observed.tokens.alg}`],
            [
              'nul-then-text',
              'followed by a NUL character and text (where a C string would end)',
              'extra-part',
              `${observed.tokens.alg}\0x`,
            ],
            ['truncate', `without its last character (${observed.tokens.alg.slice(0, -1)})`, 'truncate', observed.tokens.alg.slice(0, -1)],
            ['list', 'a list holding it', 'other-type', [observed.tokens.alg]],
            ['number', 'a number (256, the digits of its name)', 'other-type', 256],
          ] as const
        ).map(([key, says, operator, value]): Made =>
          resigned({
            operator,
            key,
            says,
            apply: resignHeader(set(value)),
            expect: {
              checks: unauthenticated(card, { signature: true }),
              source: 'spec 7: the signature fails validation (RFC 7515 4.1.1, 5.2: alg names no registered algorithm)',
            },
          }),
        ),
        ruled('rs384', 'RS384, signed with the tenant key', 'near-value', set('RS384')),
        ruled('ps256', 'PS256, signed with the tenant key', 'near-value', set('PS256')),
        ruled('case', 'in lower case (rs256)', 'case', set('rs256')),
        // RS256 under its names in other libraries' algorithm tables (XML-DSig's URI, which
        // Microsoft.IdentityModel maps to RS256; OpenSSL's and Node's digest name; Java's JCA name;
        // WebCrypto's): none is the JWA name RFC 7518 3.1 registers, though a verifier that looks
        // the name up in such a table verifies RS256.
        ...(
          [
            ['alias-xmldsig-uri', "XML-DSig's URI of RSA with SHA-256", 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256'],
            ['alias-openssl', "OpenSSL's name of RSA with SHA-256", 'RSA-SHA256'],
            ['alias-jca', "Java's JCA name of RSA with SHA-256", 'SHA256withRSA'],
            ['alias-webcrypto', "WebCrypto's name of RSA PKCS#1 v1.5", 'RSASSA-PKCS1-v1_5'],
          ] as const
        ).map(([key, says, alias]) => ruled(key, `${says} (${alias})`, 'near-value', set(alias))),
        ruled('absent', 'absent', 'absent', set(undefined)),
        ruled('null', 'null', 'null', set(null)),
        ruled('empty', 'empty', 'empty', set('')),
        escaped,
        twice('HS256', 'HS256'),
      ];
    case 'kid':
      return [
        {
          operator: 'forgery',
          key: 'unknown',
          says: 'a kid the tenant does not publish (a foreign key)',
          apply: edited({ forge: 'unknown-kid' }),
          expect: { checks: unauthenticated(card, { signature: true }), source: 'spec 7: the signature fails validation' },
        },
        ruled('absent', 'absent', 'absent', set(undefined)),
        ruled('case', 'in the other letter case', 'case', (h) => claimSet(h, 'kid', swapCase(String(h.kid)))),
        ruled('truncate', 'without its last character', 'truncate', (h) => claimSet(h, 'kid', String(h.kid).slice(0, -1))),
        ruled('whitespace', 'followed by a space', 'whitespace', (h) => claimSet(h, 'kid', `${String(h.kid)} `)),
        ruled('whitespace-leading', 'preceded by a tab', 'whitespace', (h) => claimSet(h, 'kid', `\t${String(h.kid)}`)),
        ruled('nul-then-text', 'followed by a NUL character and text (where a C string would end)', 'extra-part', (h) =>
          claimSet(h, 'kid', `${String(h.kid)}\0x`),
        ),
        // Followed by "=", base64's padding: another kid, though a lookup that decodes kids as
        // base64url bytes (a decoder that also takes padding) finds the published key.
        ruled('padded', 'followed by "=" (base64 padding)', 'extra-part', (h) => claimSet(h, 'kid', `${String(h.kid)}=`)),
        ruled('number', 'a number', 'other-type', set(1)),
        // The key's position in the JWKS as text ("0", the first key): another kid, though a
        // finder that reads a numeric kid as an index into the set's keys finds the published key.
        ruled('jwks-position', 'the position of the first key in the JWKS ("0")', 'near-value', set('0')),
        // A key is found by its kid (RFC 7515 4.1.4): another identifier of the same published key
        // names none, though a finder that also matches the certificate's thumbprint finds it.
        resigned({
          operator: 'near-value',
          key: 'as-x5t',
          says: "the published key's certificate thumbprint (x5t) in its place",
          apply: edited({ forge: 'kid-as-x5t' }),
          needs: [{ jwks: true }],
          expect: {
            checks: refusedByObservedRule('auth.token.header'),
            source: 'observed: RS256 tokens with the kid of a published key (RFC 7515 4.1.4: a key is named by its kid)',
          },
        }),
        // kid is a string (RFC 7515 4.1.4): a list holding the published kid names no key, though a
        // loose comparison (== in JavaScript) matches it.
        ruled('list', 'a list holding it', 'other-type', (h) => claimSet(h, 'kid', [h.kid])),
        ruled('null', 'null', 'null', set(null)),
        ruled('empty', 'empty', 'empty', set('')),
        escaped,
        twice('conformance-suite-unknown-kid', 'a kid the tenant does not publish'),
      ];
    case 'typ':
      return [
        unknown('absent', 'absent', 'absent', set(undefined)),
        unknown('case', 'in lower case (jwt)', 'case', set('jwt')),
        unknown('at+jwt', 'at+jwt', 'near-value', set('at+jwt')),
      ];
    case 'zip':
      return [
        // "zip": "DEF" and the payload segment the DEFLATE of the claims, signed as sent: "zip" is a
        // JWE header parameter (RFC 7516 4.1.3), which RFC 7515 does not define for a JWS, whose
        // payload is the octets signed; a JOSE layer that applies it to signed tokens too (one
        // header parser for JWS and JWE) inflates the payload and reads the valid claims.
        resigned({
          operator: 'extra-part',
          key: 'deflated-payload',
          says: '"DEF", the payload segment the DEFLATE of the valid claims (a JWE\'s compression, RFC 7516 4.1.3)',
          apply: edited({ resign: { header: (h) => ({ ...h, zip: 'DEF' }), deflated: true } }),
          expect: {
            checks: refusedByObservedRule('auth.token.header'),
            source: 'observed: RS256 tokens of JSON claims (RFC 7515 defines no "zip"; RFC 7516 4.1.3 has it for JWE only)',
          },
        }),
      ];
    default:
      return [
        // "b64": false without crit, signed over the raw claims: RFC 7797 3 and 6 have b64 count only
        // where crit names it, so the JWS is an ordinary one whose signature does not validate,
        // though a verifier that reads b64 whatever crit says checks it over the raw payload.
        resigned({
          operator: 'extra-part',
          key: 'b64-false-without-crit',
          says: 'absent, with "b64": false in the header and the signature made over the raw claims (RFC 7797\'s input)',
          apply: edited({ resign: { header: (h) => ({ ...h, b64: false }), unencodedPayload: true } }),
          expect: {
            checks: unauthenticated(card, { signature: true }),
            source: 'spec 7: the signature fails validation (RFC 7797 6: b64 counts only where crit names it)',
          },
        }),
        {
          ...ruled('unknown-critical', 'naming an extension the service does not know', 'extra-part', (h) => ({
            ...h,
            crit: ['urn:conformance-suite:unknown'],
            'urn:conformance-suite:unknown': true,
          })),
          // RFC 7515 4.1.11 makes the JWS invalid, so the token is invalid: spec 7's 401, at contract level.
          expect: {
            checks: unauthenticated(card),
            source:
              'spec 7: an invalid token is refused 401 (RFC 7515 4.1.11: a JWS with a critical parameter the recipient does not understand is invalid)',
          },
        },
        // An empty list: RFC 7515 4.1.11 says producers MUST NOT use the empty list, so the JWS is
        // invalid, though a check that only looks for a name it does not understand finds none.
        {
          ...ruled('empty-list', 'an empty list ([])', 'empty', (h) => ({ ...h, crit: [] })),
          expect: {
            checks: unauthenticated(card),
            source: 'spec 7: an invalid token is refused 401 (RFC 7515 4.1.11: crit, where present, is a non-empty list)',
          },
          extended: true,
        },
        // Naming a parameter the header has and the JWS specification defines (kid, alg): producers
        // must not (RFC 7515 4.1.11) and the tenant issues no crit, though a check that counts the
        // names its own code reads as understood lets them through. Refused as the tenant's rule.
        ...(['kid', 'alg'] as const).map((name) => ({
          ...ruled(`registered-${name}`, `naming ${name}, a parameter of the JWS specification (["${name}"])`, 'near-value', (h) => ({
            ...h,
            crit: [name],
          })),
          extended: true,
        })),
      ];
  }
}

/** A JOSE header's JSON text with `member` first as it is and again last as `other`. */
function memberTwice(header: JsonRecord, member: string, other: unknown): string {
  const { [member]: value, ...rest } = header;
  const middle = JSON.stringify(rest).slice(1, -1);
  return `{${JSON.stringify(member)}:${JSON.stringify(value)},${middle}${middle === '' ? '' : ','}${JSON.stringify(member)}:${JSON.stringify(other)}}`;
}

/**
 * A base64url segment with the "=" padding of standard base64; a segment whose length is a
 * multiple of four, which has none, gets "==" all the same where `always` (the token must differ).
 */
function padded(segment: string, always = false): string {
  const count = (4 - (segment.length % 4)) % 4;
  return segment + '='.repeat(count === 0 && always ? 2 : count);
}

/** A text with its first character written as its percent-encoding (%XX). */
function withFirstPercentEncoded(text: string): string {
  return `%${text.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}${text.slice(1)}`;
}

/** The token with the first character of its payload written as its percent-encoding (%XX). */
/** 2020-01-01T00:00:00Z, as a NumericDate: a token issued years before any test runs. */
const LONG_AGO = 1_577_836_800;

export function withCharacterPercentEncoded(token: string): string {
  return withCharacterEscapedAt(token, token.indexOf('.') + 1);
}

/** An issuer's or audience's path spelled otherwise, the same path once normalised. */
const pathRespellings: ReadonlyArray<{ key: string; says: string; change: (url: string) => string; extended?: true }> = [
  { key: 'dot-segment', says: 'with a dot segment at the start of its path (/./)', change: (url) => afterOrigin(url, './') },
  { key: 'empty-segment', says: 'with an empty segment at the start of its path (//)', change: (url) => afterOrigin(url, '/') },
  {
    key: 'dot-dot-segment',
    says: 'with a segment undone by a dot-dot at the start of its path (/a/../)',
    change: (url) => afterOrigin(url, 'a/../'),
    extended: true,
  },
];

/** The URL with `inserted` written just after its origin's slash. */
function afterOrigin(url: string, inserted: string): string {
  const match = /^[a-z][a-z0-9+.-]*:\/\/[^/]*\//i.exec(url);
  return match ? `${match[0]}${inserted}${url.slice(match[0].length)}` : `${url}/${inserted}`;
}

/** The token with its signature segment written in standard base64 with its padding (the same bytes). */
export function inStandardBase64Signature(token: string): string {
  const at = token.lastIndexOf('.');
  return `${token.slice(0, at)}.${Buffer.from(token.slice(at + 1), 'base64url').toString('base64')}`;
}

/** The JSON of a compact JWS's segment (0 the JOSE header, 1 the payload); throws where it is none. */
function segmentJson(token: string, index: 0 | 1): unknown {
  return JSON.parse(Buffer.from(token.split('.')[index] ?? '', 'base64url').toString('utf8')) as unknown;
}

/** The token with one segment's JSON written again with white space between its members; the other segments as they were. */
export function withSegmentReencoded(token: string, index: 0 | 1): string {
  const parts = token.split('.');
  parts[index] = Buffer.from(JSON.stringify(segmentJson(token, index), null, 1)).toString('base64url');
  return parts.join('.');
}

function signatureVariants(card: OperationCard): Made[] {
  const forged = (key: string, says: string, forge: TokenEdit['forge'], message?: string): Made => ({
    operator: 'forgery',
    key,
    says,
    apply: edited({ forge: forge! }),
    expect: {
      checks: unauthenticated(card, { signature: true, ...(message ? { error: message } : {}) }),
      source: 'spec 7: the signature fails validation',
    },
  });
  return [
    forged('tampered', 'with one character changed', 'tampered-signature', 'invalid_signature'),
    { ...forged('tampered-payload', 'kept over a payload whose scope was widened', 'tampered-payload'), extended: true },
    forged('foreign-key', 'made with a foreign key under the same kid', 'foreign-key'),
    forged('embedded-jwk', 'made with a foreign key the token carries in its own header (jwk)', 'embedded-jwk'),
    forged('embedded-x5c', 'made with a foreign key whose certificate the token carries in its own header (x5c)', 'embedded-x5c'),
    forged('jku', "made with a foreign key whose JWKS the token's header names (jku, served by the suite on loopback)", 'jku-foreign'),
    // A key the tenant knows, but as a client's credential (private_key_jwt), not as one of its
    // signing keys: a verifier that tries every key it holds takes it under the tenant's kid, one
    // whose key table holds clients' keys by their own kid takes it under that, and one that tries
    // every key when the token names none takes it without a kid.
    ...(
      [
        ['client-key', "under the tenant's kid"],
        ['client-key-own-kid', 'under its own kid (its RFC 7638 thumbprint)'],
        ['client-key-no-kid', 'with no kid'],
      ] as const
    ).map(([forge, under]) => ({
      ...forged(forge, `made with the key of a client of the tenant that authenticates with it (private_key_jwt), ${under}`, forge),
      keyClientControl: true,
      needs: [
        {
          context: (c: RequestContext) =>
            c.keyClient
              ? undefined
              : 'the target file names no token_alternatives.key_client (a client that authenticates with a key, and its private key)',
        },
      ],
    })),
    {
      // A compact JWS is base64url without padding (RFC 7515 2, 7.1): the same bytes in the standard
      // alphabet with padding are no JWS, though a decoder that reads both alphabets takes them.
      operator: 'encoding',
      key: 'standard-base64',
      says: 're-encoded in standard base64 (+, / and = padding) instead of base64url',
      apply: edited({ text: inStandardBase64Signature }),
      expect: {
        checks: unauthenticated(card),
        source: 'spec 7: the token is invalid (RFC 7515 7.1: a compact JWS is written in base64url, unpadded)',
      },
    },
    // A JWS signs its segments as sent (RFC 7515 5.2): the same header or claims written with white
    // space between their members are other bytes, though a verifier that checks the signature over
    // its own serialisation of what it parsed finds them signed.
    ...([0, 1] as const).map((index): Made => ({
      operator: 'encoding',
      key: index === 0 ? 'header-reencoded' : 'payload-reencoded',
      says: `kept over its ${index === 0 ? 'JOSE header' : 'payload'} written again with white space between the members (the same JSON)`,
      apply: edited({ text: (token) => withSegmentReencoded(token, index) }),
      expect: {
        checks: unauthenticated(card, { signature: true }),
        source: 'spec 7: the signature fails validation (RFC 7515 5.2: over the segments as sent)',
      },
      ...(index === 0 ? { extended: true } : {}),
    })),
    leadingZeroDropped(card),
    ...otherRsaSignatures(card),
    ...reachedIdentityForgeries(card),
    {
      operator: 'absent',
      key: 'stripped',
      says: 'removed, alg still RS256',
      apply: edited({ text: (t) => `${t.slice(0, t.lastIndexOf('.'))}.` }),
      expect: { checks: unauthenticated(card, { signature: true }), source: 'spec 7: the signature fails validation' },
    },
  ];
}

// Long: one entry per variation of a claim (absent, each near miss of its value, each other type),
// as the catalogue lists them; a reviewer reads a claim's whole negative space in one place.
function claimVariants(card: OperationCard, member: string): Made[] {
  const audienceOf = (claims: JsonRecord) => String(Array.isArray(claims.aud) ? claims.aud[0] : claims.aud);
  const current = (claims: JsonRecord) => (member === 'aud' ? audienceOf(claims) : String(claims[member]));
  const invalid = (
    key: string,
    says: string,
    operator: Made['operator'],
    change: (c: JsonRecord, now: number) => JsonRecord,
    error?: string,
  ): Made =>
    resigned({
      operator,
      key,
      says,
      apply: resignClaims(change),
      expect: {
        checks: unauthenticated(card, error ? { error } : {}),
        source: 'spec 7: the token is invalid (its issuer, audience or time)',
      },
    });
  const ruled = (key: string, says: string, operator: Made['operator'], change: (c: JsonRecord, now: number) => JsonRecord): Made =>
    resigned({
      operator,
      key,
      says,
      apply: resignClaims(change),
      expect: {
        checks: refusedByObservedRule('auth.token.claims'),
        source: 'observed: the claims the service issues (observed.yaml tokens)',
      },
    });
  const fine = (
    key: string,
    says: string,
    operator: Made['operator'],
    change: (c: JsonRecord, now: number) => JsonRecord,
    clause: string,
    source: string,
  ): Made => resigned({ operator, key, says, apply: resignClaims(change), expect: { checks: [{ clause, outcome: accepted }], source } });
  const unknown = (
    key: string,
    says: string,
    operator: Made['operator'],
    change: (c: JsonRecord, now: number) => JsonRecord,
    why: string,
  ): Made => resigned({ operator, key, says, apply: resignClaims(change), expect: { none: why } });
  const set = (value: unknown) => (claims: JsonRecord) => claimSet(claims, member, value);
  const text = (change: (value: string) => string) => (claims: JsonRecord) => claimSet(claims, member, change(current(claims)));
  // Out of its time however it is read: a JWT with a claim twice is refused, or its last member
  // taken (RFC 7519 4); a claim replicated in the JOSE header does not stand for the payload's
  // (RFC 7519 5.3). A verifier that reads the first member, or the header's, lets it through.
  const outOfTime = 'spec 7: the token is invalid (its time, however a duplicate or replicated claim is read: RFC 7519 4 and 5.3)';
  const twice = (key: string, says: string, first: (now: number) => number, last: (now: number) => number): Made =>
    resigned({
      operator: 'duplicate',
      key,
      says,
      apply: edited({ resign: { claimsText: (c, now) => claimTwice(c, member, first(now), last(now)) } }),
      expect: { checks: unauthenticated(card), source: outOfTime },
    });
  const replicated = (
    key: string,
    says: string,
    inHeader: (now: number) => number,
    change: (c: JsonRecord, now: number) => JsonRecord,
  ): Made =>
    resigned({
      operator: 'extra-part',
      key,
      says,
      apply: edited({ resign: { header: (h) => ({ ...h, [member]: inHeader(Math.floor(Date.now() / 1000)) }), claims: change } }),
      expect: { checks: unauthenticated(card), source: outOfTime },
    });
  const malformed = (rule: typeof invalid) => [
    rule('absent', 'absent', 'absent', set(undefined)),
    rule('null', 'null', 'null', set(null)),
    rule('empty', 'empty', 'empty', set('')),
    rule('number', 'a number', 'other-type', set(1)),
    // An object holding its value as its one member: no string or number (RFC 7519 4.1), though a
    // reader that casts an object to the list of its values (PHP's (array), Object.values) finds it.
    rule('object-holding-it', 'an object holding its value as its one member ({"value": ...})', 'other-type', (c) =>
      claimSet(c, member, { value: member === 'aud' ? audienceOf(c) : c[member] }),
    ),
  ];
  switch (member) {
    case 'iss':
    case 'aud': {
      const other = member === 'iss' ? 'https://issuer.example.com/' : 'https://another-api.example.com/';
      return [
        ...malformed(invalid),
        // No audience, and a client_id claim naming the token's azp, as Cognito's access tokens
        // carry instead of aud: a token for no audience all the same, though a check written for
        // those tokens compares client_id where aud is missing.
        ...(member === 'aud'
          ? [
              {
                ...invalid(
                  'absent-with-client-id',
                  'absent, with a client_id claim naming its azp (as Cognito issues access tokens)',
                  'absent',
                  (c) => {
                    const { aud: _aud, ...rest } = c;
                    return { ...rest, client_id: c.azp };
                  },
                ),
                extended: true,
              },
            ]
          : []),
        invalid(
          'case',
          'in capitals',
          'case',
          text((v) => v.toUpperCase()),
        ),
        invalid(
          'whitespace',
          'followed by a space',
          'whitespace',
          text((v) => `${v} `),
        ),
        invalid(
          'whitespace-leading',
          'preceded by a tab',
          'whitespace',
          text((v) => `\t${v}`),
        ),
        // A NUL and text after it: another string, though a comparison of C strings ends at the NUL.
        invalid(
          'nul-then-text',
          'followed by a NUL character and text (where a C string would end)',
          'extra-part',
          text((v) => `${v}\0x`),
        ),
        // The issuer is an origin and "/" (observed): a change to a longer path is another row's URL there.
        ...urlNearMisses
          .filter(({ withPath }) => member === 'aud' || !withPath)
          .map(({ key, says, change, operator }) => invalid(key, says, operator, text(change))),
        // "www." before its host: another string (RFC 7519 4.1.1, 4.1.3 compare them as strings) and
        // another host, though a check written to take the site with or without "www." (a pattern
        // ^https://(www\.)?<host>/, a "www." stripper) takes it for the right one.
        {
          ...invalid(
            'host-www',
            'with "www." before its host name',
            'near-value',
            text((v) => v.replace(/^(\w+:\/\/)/, '$1www.')),
          ),
          extended: true,
        },
        // Its path spelled with a dot segment, an empty segment or a segment undone by "..": other
        // strings, compared as strings (RFC 7519 4.1.1, 4.1.3), though path normalisation or a URL
        // parser maps them back onto the right value.
        ...pathRespellings.map(({ key, says, change, extended }) => ({
          ...invalid(key, says, 'near-value', text(change)),
          ...(extended ? { extended } : {}),
        })),
        // The same host on another port: another origin (RFC 6454 4) and another string, though a
        // check that compares scheme and host name alone (URL.hostname, a development convenience
        // for services whose port changes from run to run) takes it for the right one.
        invalid('another-port', 'on the same host name at another port', 'near-value', text(withAnotherPort)),
        // Another identifier of the same tenant, not the management interface (RFC 7519 4.1.3: the
        // audience must name the recipient): the tenant's userinfo endpoint (<issuer>userinfo, an
        // OpenID Connect token's second audience), the issuer itself and its token endpoint (the
        // audience of a client assertion, RFC 7523 3). A verifier configured with a sample's list of
        // audiences, or one that takes whatever names the tenant, accepts them.
        ...(member === 'aud'
          ? (
              [
                ['tenant-userinfo', "the tenant's userinfo endpoint (<issuer>userinfo)", (iss: string) => `${iss}userinfo`, false],
                ['tenant-issuer', "the tenant's issuer (the token's iss)", (iss: string) => iss, true],
                [
                  'tenant-token-endpoint',
                  "the tenant's token endpoint (<issuer>oauth/token)",
                  (iss: string) => `${iss}${tokenEndpointPath}`,
                  true,
                ],
              ] as const
            ).map(([key, says, audience, extended]) => ({
              ...invalid(key, says, 'other-owner', (c) => claimSet(c, 'aud', audience(String(c.iss)))),
              ...(extended ? { extended } : {}),
            }))
          : []),
        // The token's own client id, as an OpenID Connect ID token's aud is (its azp): not the
        // management interface, though an authorizer whose audience list also holds the tenant's
        // client ids (for a front end that sends its ID token) takes it.
        ...(member === 'aud'
          ? [
              {
                ...invalid('own-client-id', "the token's own client id (its azp, as an ID token's aud is)", 'other-owner', (c) =>
                  claimSet(c, 'aud', c.azp),
                ),
                extended: true,
              },
            ]
          : []),
        // A list holding a list holding it names nothing (RFC 7519 4.1.3: aud is a string or a list
        // of strings; iss a string), though a reader that flattens lists finds the value.
        invalid('nested-list', 'a list holding a list holding it', 'other-type', (c) => claimSet(c, member, [[current(c)]])),
        // Another API's (tenant's), in a token issued years ago that is still unexpired: refused for
        // its audience (issuer) whenever it was issued, though a check added later and applied only
        // to tokens issued since (a migration that spared the old long-lived tokens) accepts it.
        {
          ...invalid(
            `${member === 'iss' ? 'another-tenant' : 'another-api'}-issued-long-ago`,
            `${member === 'iss' ? "another tenant's" : "another API's"}, in a token issued on 1 January 2020 that expires an hour from now`,
            'other-owner',
            (c, now) => ({
              ...claimSet(c, member, other),
              iat: LONG_AGO,
              exp: now + 3600,
            }),
          ),
          extended: true,
        },
        // Another API's (tenant's), in a token whose aud is a list holding its audience (RFC 7519
        // 4.1.3 allows one): refused for it all the same, though a verifier that takes another path
        // for a list audience (added later, for tokens of several APIs) checks less there.
        {
          ...invalid(
            member === 'iss' ? 'another-tenant-aud-listed' : 'another-api-listed',
            member === 'iss' ? "another tenant's, in a token whose aud is a list holding its audience" : "another API's, as a list of one",
            'other-owner',
            (c) => (member === 'iss' ? { ...claimSet(c, 'iss', other), aud: [audienceOf(c)] } : claimSet(c, 'aud', [other])),
          ),
          extended: true,
        },
        ...(member === 'iss' ? [invalid('list', 'a list holding it', 'other-type', (c) => claimSet(c, member, [current(c)]))] : []),
        ...(member === 'iss' ? reachedIdentityOtherPort(card) : []),
        {
          // A token of another tenant, or of this one for another API: made with the target's key
          // where the suite holds it, else got from the target file's token alternatives.
          operator: 'other-owner',
          key: 'other',
          says: member === 'iss' ? "another tenant's" : "another API's",
          apply: withCredential({ kind: 'alternative', token: member === 'iss' ? 'wrong-issuer' : 'wrong-audience' }),
          needs: [{ token: member === 'iss' ? 'wrong-issuer' : 'wrong-audience' }],
          expect: { checks: unauthenticated(card), source: 'spec 7: a token of another issuer or for another audience is invalid' },
        },
        ...(member === 'aud'
          ? [
              unknown(
                'list',
                'a list holding it',
                'extra-part',
                (c) => claimSet(c, 'aud', [audienceOf(c)]),
                'RFC 7519 allows a list; whether the service reads one is not known',
              ),
              unknown(
                'list-with-another',
                'a list holding it and another API',
                'extra-part',
                (c) => claimSet(c, 'aud', [audienceOf(c), other]),
                'RFC 7519 allows a list; whether the service reads one is not known',
              ),
            ]
          : []),
      ];
    }
    case 'sub':
    case 'azp': {
      const suffix = member === 'sub' ? observed.tokens.subject_suffix : '';
      return [
        ...malformed(ruled),
        // A list holding it is no string (RFC 7519 4.1.2, OpenID Connect Core 2: azp is a string),
        // though a lookup that turns the claim into text ([x] becomes "x") finds the client.
        ruled('list', 'a list holding it', 'other-type', (c) => claimSet(c, member, [current(c)])),
        ruled('case', 'in the other letter case', 'case', text(swapCase)),
        // With a space after it or a tab before it: another string (RFC 7519 4.1.2, compared as it
        // is), though a lookup that trims its key first finds the client.
        ruled(
          'whitespace',
          'followed by a space',
          'whitespace',
          text((v) => `${v} `),
        ),
        ruled(
          'whitespace-leading',
          'preceded by a tab',
          'whitespace',
          text((v) => `\t${v}`),
        ),
        ruled(
          'nul-then-text',
          'followed by a NUL character and text (where a C string would end)',
          'extra-part',
          text((v) => `${v}\0x`),
        ),
        // Written with a compatibility character NFKC maps onto the client's (a fullwidth letter,
        // the fullwidth twin of the suffix's punctuation): another string, compared as it is
        // (RFC 7519 4.1.2: StringOrURI, compared without normalisation, RFC 7519 2), though a
        // comparison after Unicode normalisation (NFKC, width folding) reads the client.
        ruled(
          'fullwidth-first-letter',
          'with its first letter or digit written in its fullwidth form',
          'encoding',
          text((v) => withFullwidth(v, /[A-Za-z0-9]/)),
        ),
        {
          ...ruled(
            'fullwidth-last-letter',
            'with its last letter or digit written in its fullwidth form',
            'encoding',
            text((v) => withFullwidth(v, /[A-Za-z0-9]/, true)),
          ),
          extended: true,
        },
        ...(/[!-/:-@[-`{-~]/.test(suffix)
          ? [
              ruled(
                'fullwidth-suffix-punctuation',
                `with the punctuation of ${suffix} written in its fullwidth form (${withFullwidth(suffix, /[!-/:-@[-`{-~]/)})`,
                'encoding',
                text((v) => (v.endsWith(suffix) ? `${v.slice(0, -suffix.length)}${withFullwidth(suffix, /[!-/:-@[-`{-~]/)}` : v)),
              ),
            ]
          : []),
        ruled(
          'truncate',
          'without its last character',
          'truncate',
          text((v) => v.slice(0, -1)),
        ),
        ...(suffix !== ''
          ? [
              ruled(
                'without-suffix',
                `the bare client id, without ${suffix}`,
                'truncate',
                text((v) => (v.endsWith(suffix) ? v.slice(0, -suffix.length) : v)),
              ),
              // The client id as it is and the suffix in capitals: a comparison that folds the case
              // of the suffix alone reads the right subject.
              ruled(
                'suffix-case',
                `with ${suffix} in capitals`,
                'case',
                text((v) => (v.endsWith(suffix) ? `${v.slice(0, -suffix.length)}${suffix.toUpperCase()}` : v)),
              ),
              // The suffix's "@" percent-encoded (%40): another subject, though a service that
              // URL-decodes its subjects before the check (they also go into URL paths) reads it.
              ruled(
                'suffix-at-percent-encoded',
                `with the "@" of ${suffix} percent-encoded (%40)`,
                'encoding',
                text((v) => (v.endsWith(suffix) ? `${v.slice(0, -suffix.length)}${suffix.replace('@', '%40')}` : v)),
              ),
              // The suffix once and at the end only: before the client id, or twice at the end. A
              // check that takes the suffix off wherever it is (replace, replaceAll) and compares
              // the rest, or one that asks only how the subject starts and ends, reads the client.
              ruled(
                'suffix-first',
                `with ${suffix} before the client id instead of after it`,
                'near-value',
                text((v) => (v.endsWith(suffix) ? `${suffix}${v.slice(0, -suffix.length)}` : v)),
              ),
              ruled(
                'suffix-twice',
                `with ${suffix} twice at its end`,
                'duplicate',
                text((v) => `${v}${suffix}`),
              ),
              // Another client's subject, beside the claims a platform maps the subject to naming
              // the right one: ASP.NET Core's inbound claim map turns sub into the name-identifier
              // claim type, and a token that carries that claim already has its own value found
              // first. The subject is the sub claim, whatever other claims say.
              {
                ...ruled(
                  'another-client-beside-aliases',
                  `another client's (conformance-other-client${suffix}), with ${SUBJECT_ALIASES.join(', ')} naming the right one`,
                  'other-owner',
                  (c) => ({
                    ...c,
                    ...Object.fromEntries(SUBJECT_ALIASES.map((alias) => [alias, c[member]])),
                    [member]: `conformance-other-client${suffix}`,
                  }),
                ),
                extended: true,
              },
              // The subject rule holds whatever the token's grant type: with gty absent or another
              // grant type's, a user's subject or the bare client id is still no <azp>@clients. A
              // check that applies the rule only to client-credentials tokens reads them as fine.
              ...(
                [
                  ['without-gty', 'gty absent', undefined],
                  ['password-gty', 'gty "password"', 'password'],
                ] as const
              ).flatMap(([gtyKey, gtySays, gty]) => [
                ruled(`user-subject-${gtyKey}`, `a user's subject (auth0|conformance-user), ${gtySays}`, 'other-owner', (c) =>
                  claimSet(claimSet(c, member, 'auth0|conformance-user'), 'gty', gty),
                ),
                ruled(`without-suffix-${gtyKey}`, `the bare client id, without ${suffix}, ${gtySays}`, 'truncate', (c) =>
                  claimSet(text((v) => (v.endsWith(suffix) ? v.slice(0, -suffix.length) : v))(c), 'gty', gty),
                ),
              ]),
            ]
          : []),
        resigned({
          operator: 'other-owner',
          key: 'non-global-client',
          says: 'naming a client that is not global, the other claim naming the global client',
          apply: (template, context) =>
            resignClaims((c) => claimSet(c, member, `${context.clients.non_global ?? 'not-a-client'}${suffix}`))(template),
          needs: [{ role: 'non_global' }],
          expect: card.globalClient
            ? {
                checks: [{ clause: card.globalClient.clause, outcome: refused }],
                source: "spec 5 rule 4: no global client's token, however it is read",
              }
            : { checks: refusedByObservedRule('auth.token.claims'), source: 'observed: sub is <azp>@clients' },
        }),
      ];
    }
    case 'exp':
      return [
        ...malformed(ruled),
        // Its own future value as a string of digits: not a NumericDate (RFC 7519 4.1.4), though
        // Number() reads it as one; a token so made is invalid however far ahead the value is.
        invalid('numeric-string', 'its own value as a string of digits', 'other-type', (c) => ({ ...c, exp: String(c.exp) })),
        // Its own future value written as a date (ISO 8601): no NumericDate either, though a claims
        // normaliser that takes date strings (Date.parse) reads the right time.
        invalid('date-string', 'its own value written as an ISO 8601 date (still ahead)', 'other-type', (c) => ({
          ...c,
          exp: isoDate(c.exp),
        })),
        // Each time claim as a list holding its valid value: no NumericDate (RFC 7519 2), though
        // arithmetic (exp * 1000) turns a list of one number into that number.
        ruled('list', 'a list holding its own value (still ahead)', 'other-type', (c) => ({ ...c, exp: [c.exp] })),
        // Past, the token without iat: a check that works out the expiry from iat (iat plus the
        // lifetime exp - iat) gets NaN, which no comparison refuses.
        invalid(
          'past-without-iat',
          `${NEAR_MISS_SECONDS} seconds ago, without iat`,
          'near-value',
          (c, now) => claimSet({ ...c, exp: now - NEAR_MISS_SECONDS }, 'iat', undefined),
          'expired_token',
        ),
        invalid(
          'past',
          `${NEAR_MISS_SECONDS} seconds ago`,
          'near-value',
          (c, now) => ({ ...c, iat: now - NEAR_MISS_SECONDS - HOUR, exp: now - NEAR_MISS_SECONDS }),
          'expired_token',
        ),
        // An hour ago, beside an nbf already past: each time claim is checked for itself, though a
        // check written as "if nbf ... else if exp" reads exp only where the token has no nbf.
        invalid(
          'past-beside-past-nbf',
          'an hour ago, nbf two hours ago',
          'near-value',
          (c, now) => ({ ...c, iat: now - 2 * HOUR, nbf: now - 2 * HOUR, exp: now - HOUR }),
          'expired_token',
        ),
        // Expired past the reference's clock tolerance by half of it: a verifier with a leeway of a
        // minute (a mobile backend's, copied) still takes it, one within the tolerance does not.
        invalid(
          'past-beyond-tolerance',
          `${BEYOND_TOLERANCE_SECONDS} seconds ago (past the ${observed.tokens.clock_skew_seconds.value} s tolerance by half of it)`,
          'near-value',
          (c, now) => ({ ...c, iat: now - BEYOND_TOLERANCE_SECONDS - HOUR, exp: now - BEYOND_TOLERANCE_SECONDS }),
          'expired_token',
        ),
        // Expired, with a Date header from when it was valid (half an hour before its expiry): the
        // client's Date does not move the server's clock (RFC 7519 4.1.4 compares exp with the
        // current time), though a verifier that takes "now" from the Date header accepts it.
        dated(
          invalid(
            'past-date-header',
            `${NEAR_MISS_SECONDS} seconds ago, the request's Date header half an hour before that (while it was valid)`,
            'near-value',
            (c, now) => ({ ...c, iat: now - NEAR_MISS_SECONDS - HOUR, exp: now - NEAR_MISS_SECONDS }),
            'expired_token',
          ),
          -NEAR_MISS_SECONDS - HOUR / 2,
        ),
        {
          ...invalid(
            'past-fraction',
            `${NEAR_MISS_SECONDS} seconds ago, ${FRACTIONAL}`,
            'near-value',
            (c, now) => ({ ...c, iat: now - NEAR_MISS_SECONDS - HOUR, exp: now - NEAR_MISS_SECONDS + FRACTION }),
            'expired_token',
          ),
          extended: true,
        },
        // Long past, but a digit shorter than the time now: a comparison of the two as text
        // ("999999999" > "1764000000") takes it for ahead.
        invalid(
          'fewer-digits',
          'long past, a digit shorter than the time now (999999999, September 2001)',
          'near-value',
          (c) => ({ ...c, iat: NINE_DIGITS - HOUR, exp: NINE_DIGITS }),
          'expired_token',
        ),
        // Before 1970: -1, and an hour ahead less 2^32 seconds. Both long past, though a verifier that
        // narrows exp to an unsigned 32-bit integer (Rust's `as u32`, a 32-bit column) wraps them
        // into the future (-1 to the year 2106, the other to an hour ahead).
        invalid('minus-one', '-1 (before 1970)', 'near-value', (c, now) => ({ ...c, iat: now - HOUR, exp: -1 }), 'expired_token'),
        {
          ...invalid(
            'wrapped-32-bit',
            'an hour ahead less 2^32 seconds (long past; an hour ahead once wrapped to an unsigned 32-bit integer)',
            'near-value',
            (c, now) => ({ ...c, iat: now - HOUR, exp: now + HOUR - 2 ** 32 }),
            'expired_token',
          ),
          extended: true,
        },
        twice(
          'duplicate-last-past',
          `twice, an hour ahead and then ${NEAR_MISS_SECONDS} seconds ago`,
          (now) => now + HOUR,
          (now) => now - NEAR_MISS_SECONDS,
        ),
        replicated(
          'header-ahead',
          `${NEAR_MISS_SECONDS} seconds ago, the JOSE header replicating it an hour ahead`,
          (now) => now + HOUR,
          (c, now) => ({ ...c, iat: now - NEAR_MISS_SECONDS - HOUR, exp: now - NEAR_MISS_SECONDS }),
        ),
        // Valid for a few seconds more: accepted. A verifier that takes its clock-skew leeway off the
        // expiry instead of adding it refuses a token in its last seconds.
        fine(
          'seconds-ahead',
          `${EXPIRY_AHEAD_SECONDS} seconds from now (still valid)`,
          'near-value',
          (c, now) => ({ ...c, exp: now + EXPIRY_AHEAD_SECONDS }),
          'auth.schemes',
          'spec 5 rule 2: a token of the tenant that has not expired satisfies the bearer scheme (RFC 7519 4.1.4)',
        ),
        {
          ...fine(
            'ahead-fraction',
            `an hour from now, ${FRACTIONAL} (still valid)`,
            'near-value',
            (c, now) => ({ ...c, exp: now + HOUR + FRACTION }),
            'auth.schemes',
            'spec 5 rule 2: a token of the tenant that has not expired satisfies the bearer scheme (RFC 7519 2: a NumericDate may be non-integer)',
          ),
          extended: true,
        },
        {
          operator: 'other-owner',
          key: 'expired-token',
          says: 'long past (an expired token of the tenant)',
          apply: withCredential({ kind: 'alternative', token: 'expired' }),
          needs: [{ token: 'expired' }],
          expect: { checks: unauthenticated(card, { error: 'expired_token' }), source: 'spec 7: an expired token is invalid' },
        },
        // The tenant's expired token with a Date header from while it was valid (between its iat
        // and exp, or a minute before exp): the client's Date does not move the server's clock.
        // Needs no signing key: the header is made from the token's own claims.
        {
          operator: 'near-value',
          key: 'expired-token-date-header',
          says: "long past (an expired token of the tenant), the request's Date header from while it was valid",
          apply: withCredential({
            kind: 'alternative',
            token: 'expired',
            carry: { headers: (token) => ({ date: dateWhileValid(token) }) },
          }),
          needs: [{ token: 'expired' }],
          expect: {
            checks: unauthenticated(card, { error: 'expired_token' }),
            source: "spec 7: an expired token is invalid, whatever the client's Date header says (RFC 7519 4.1.4: the current time)",
          },
        },
      ];
    case 'nbf':
      return [
        // Only nbf changed, iat and exp as issued: a check that reads nbf only when iat is absent, or
        // takes iat for the start of validity, lets it through.
        invalid('future-alone', `${NEAR_MISS_SECONDS} seconds from now, iat and exp as issued`, 'near-value', (c, now) => ({
          ...c,
          nbf: now + NEAR_MISS_SECONDS,
        })),
        {
          ...invalid(
            'future-alone-fraction',
            `${NEAR_MISS_SECONDS} seconds from now, ${FRACTIONAL}, iat and exp as issued`,
            'near-value',
            (c, now) => ({
              ...c,
              nbf: now + NEAR_MISS_SECONDS + FRACTION,
            }),
          ),
          extended: true,
        },
        // Ahead, the token without iat: nbf is compared with the clock (RFC 7519 4.1.5), though a
        // check that compares it with iat ("not valid before it was issued") has nothing to refuse.
        invalid('future-without-iat', `${NEAR_MISS_SECONDS} seconds from now, without iat`, 'near-value', (c, now) =>
          claimSet({ ...c, nbf: now + NEAR_MISS_SECONDS }, 'iat', undefined),
        ),
        invalid('future', `${NEAR_MISS_SECONDS} seconds from now`, 'near-value', (c, now) => ({
          ...c,
          iat: now + NEAR_MISS_SECONDS,
          nbf: now + NEAR_MISS_SECONDS,
          exp: now + NEAR_MISS_SECONDS + HOUR,
        })),
        invalid('far-future', 'an hour from now', 'near-value', (c, now) => ({
          ...c,
          iat: now + HOUR,
          nbf: now + HOUR,
          exp: now + 2 * HOUR,
        })),
        // Not yet valid, with a Date header from when it will be (an hour and a half ahead): the
        // client's Date does not move the server's clock (RFC 7519 4.1.5 compares nbf with the
        // current time), though a verifier that takes "now" from the Date header accepts it.
        dated(
          invalid(
            'far-future-date-header',
            "an hour from now, the request's Date header an hour and a half ahead (while it is valid)",
            'near-value',
            (c, now) => ({
              ...c,
              iat: now + HOUR,
              nbf: now + HOUR,
              exp: now + 2 * HOUR,
            }),
          ),
          HOUR + HOUR / 2,
        ),
        // A minute ago plus 2^32 seconds (far ahead): a minute ago once wrapped to an unsigned
        // 32-bit integer, as exp's row (a u32 cast of the claims' times).
        {
          ...invalid(
            'wrapped-32-bit',
            'a minute ago plus 2^32 seconds (far ahead; a minute ago once wrapped to an unsigned 32-bit integer)',
            'near-value',
            (c, now) => ({
              ...c,
              nbf: now - 60 + 2 ** 32,
            }),
          ),
          extended: true,
        },
        // Far ahead, a digit longer than the time now: a comparison as text takes it for past.
        invalid('more-digits', 'far ahead, a digit longer than the time now (10000000000, the year 2286)', 'near-value', (c) => ({
          ...c,
          nbf: ELEVEN_DIGITS,
        })),
        twice(
          'duplicate-last-ahead',
          'twice, a minute ago and then an hour from now',
          (now) => now - 60,
          (now) => now + HOUR,
        ),
        replicated(
          'header-past',
          'an hour from now, the JOSE header replicating it a minute ago',
          (now) => now - 60,
          (c, now) => ({
            ...c,
            iat: now + HOUR,
            nbf: now + HOUR,
            exp: now + 2 * HOUR,
          }),
        ),
        fine(
          'past',
          'a minute ago',
          'near-value',
          (c, now) => ({ ...c, nbf: now - 60 }),
          'auth.token.claims',
          'a token valid since a minute ago is valid (RFC 7519 4.1.5)',
        ),
        {
          ...fine(
            'past-fraction',
            `a minute ago, ${FRACTIONAL}`,
            'near-value',
            (c, now) => ({ ...c, nbf: now - 60 - FRACTION }),
            'auth.token.claims',
            'a token valid since a minute ago is valid (RFC 7519 4.1.5; 2: a NumericDate may be non-integer)',
          ),
          extended: true,
        },
        // null: no time at all, though a check written "if (nbf != null)" takes it for a claim not sent.
        ruled('null', 'null', 'null', (c) => ({ ...c, nbf: null })),
        ruled('date-string', 'a minute ago, written as an ISO 8601 date', 'other-type', (c, now) => ({ ...c, nbf: isoDate(now - 60) })),
        // A JSON boolean, as iat's rows: false and true are long past to a reader that takes them for 0 and 1.
        ...BOOLEANS.map((value) => ruled(`boolean-${value}`, `${value} (a JSON boolean)`, 'other-type', (c) => ({ ...c, nbf: value }))),
        // A minute ago in milliseconds: some fifty thousand years ahead, though a reader that takes
        // large times for milliseconds divides it back to a minute ago.
        invalid('milliseconds', 'a minute ago in milliseconds', 'near-value', (c, now) => ({ ...c, nbf: (now - 60) * 1000 })),
        ruled('string', 'a string', 'other-type', (c, now) => ({ ...c, nbf: String(now - 60) })),
        ruled('list', 'a list holding a minute ago', 'other-type', (c, now) => ({ ...c, nbf: [now - 60] })),
      ];
    case 'iat':
      return [
        ruled('future', `${NEAR_MISS_SECONDS} seconds from now`, 'near-value', (c, now) => ({ ...c, iat: now + NEAR_MISS_SECONDS })),
        // As nbf's and exp's rows: an hour ago plus 2^32 seconds, an hour ago once wrapped to u32.
        {
          ...ruled(
            'wrapped-32-bit',
            'an hour ago plus 2^32 seconds (far ahead; an hour ago once wrapped to an unsigned 32-bit integer)',
            'near-value',
            (c, now) => ({
              ...c,
              iat: now - HOUR + 2 ** 32,
            }),
          ),
          extended: true,
        },
        {
          ...ruled('future-fraction', `${NEAR_MISS_SECONDS} seconds from now, ${FRACTIONAL}`, 'near-value', (c, now) => ({
            ...c,
            iat: now + NEAR_MISS_SECONDS + FRACTION,
          })),
          extended: true,
        },
        // Ahead, beside an nbf already past: each time claim is checked for itself, though a check
        // that reads one "not before" instant (nbf ?? iat) looks only at nbf.
        ruled('future-beside-past-nbf', `${NEAR_MISS_SECONDS} seconds from now, nbf a minute ago`, 'near-value', (c, now) => ({
          ...c,
          iat: now + NEAR_MISS_SECONDS,
          nbf: now - 60,
        })),
        ruled('null', 'null', 'null', (c) => ({ ...c, iat: null })),
        ruled('string', 'a string', 'other-type', (c) => ({ ...c, iat: String(c.iat) })),
        ruled('date-string', 'its own value written as an ISO 8601 date', 'other-type', (c) => ({ ...c, iat: isoDate(c.iat) })),
        // A JSON boolean: no NumericDate, though a language whose booleans are integers (Python's
        // bool is an int, PHP's loose types) reads false as 1970 and true as a second after it.
        ...BOOLEANS.map((value) => ruled(`boolean-${value}`, `${value} (a JSON boolean)`, 'other-type', (c) => ({ ...c, iat: value }))),
        ruled('list', 'a list holding its own value', 'other-type', (c) => ({ ...c, iat: [c.iat] })),
        // The time now in milliseconds: some fifty thousand years ahead, though a reader that takes
        // large times for milliseconds divides it back to now.
        ruled('milliseconds', 'the time now in milliseconds', 'near-value', (c, now) => ({ ...c, iat: now * 1000 })),
        fine(
          'hour-ago',
          'an hour earlier',
          'near-value',
          (c) => ({ ...c, iat: Number(c.iat) - HOUR }),
          'auth.token.claims',
          'a token issued earlier is valid until it expires',
        ),
        // Late in its life: issued 23 hours ago with its day's lifetime, an hour left. A limit on a
        // token's age (a web login's, counted from iat) refuses what the lifetime still allows.
        fine(
          'late-in-life',
          `${LATE_IN_LIFE_HOURS} hours earlier, exp an hour from now (the ${observed.tokens.expires_in} s lifetime)`,
          'near-value',
          (c, now) => ({ ...c, iat: now - LATE_IN_LIFE_HOURS * HOUR, exp: now - LATE_IN_LIFE_HOURS * HOUR + observed.tokens.expires_in }),
          'auth.token.claims',
          'a token is valid until it expires, however long ago it was issued (observed: a lifetime of a day)',
        ),
        unknown(
          'absent',
          'absent',
          'absent',
          set(undefined),
          'iat is optional (RFC 7519 4.1.6); whether the service needs it is not known',
        ),
      ];
    case 'scope':
      return [
        resigned({
          operator: 'absent',
          key: 'absent',
          says: 'absent',
          apply: resignClaims(set(undefined)),
          expect: { checks: forbidden(card), source: 'a token without scopes holds no scope' },
        }),
        resigned({
          operator: 'empty',
          key: 'empty',
          says: 'empty',
          apply: resignClaims(set('')),
          expect: { checks: forbidden(card), source: 'a token without scopes holds no scope' },
        }),
        resigned({
          operator: 'null',
          key: 'null',
          says: 'null',
          apply: resignClaims(set(null)),
          expect: { checks: [{ clause: card.scope.clause, outcome: refused }], source: 'a token whose scope is null holds no scope' },
        }),
        // The service writes the scope claim as one space-separated string (observed.yaml
        // tokens.scope_claim): a list of the same scopes was not issued by it.
        ruled('list', 'a list of its scopes', 'other-type', (c) =>
          claimSet(c, 'scope', (typeof c.scope === 'string' ? c.scope : '').split(' ')),
        ),
      ];
    case '*':
      return [
        // A client id in another claim than azp and sub (client_id, RFC 9068): the token's client is
        // the one azp and sub name, so a token of a client that is not global stays refused.
        ...(card.globalClient
          ? [
              resigned({
                operator: 'other-owner',
                key: 'client-id-claim-of-global',
                says: 'of a client that is not global, with a client_id claim naming the global client',
                apply: (template, context) =>
                  resignClaims((c) => ({
                    ...asClient(c, context.clients.non_global ?? 'not-a-client'),
                    client_id: context.clients.global,
                  }))(template),
                needs: [{ role: 'non_global' }],
                expect: {
                  checks: [{ clause: card.globalClient.clause, outcome: refused }],
                  source: "spec 5 rule 4: the token's client (azp, sub) is not global",
                },
              }),
              // Claims saying the client is global (plain, and namespaced under the tenant's issuer as
              // custom claims are): the token does not make its client global, the client's own setting
              // does, though a check that trusts a signed token's claims for it lets the client through.
              resigned({
                operator: 'other-owner',
                key: 'claims-global',
                says: 'of a client that is not global, with claims saying it is (global, is_global and <issuer>global true)',
                apply: (template, context) =>
                  resignClaims((c) => ({
                    ...asClient(c, context.clients.non_global ?? 'not-a-client'),
                    global: true,
                    is_global: true,
                    [`${typeof c.iss === 'string' ? c.iss : ''}global`]: true,
                  }))(template),
                needs: [{ role: 'non_global' }],
                expect: {
                  checks: [{ clause: card.globalClient.clause, outcome: refused }],
                  source: "spec 5 rule 4: whether a client is global is the client's setting, which no claim of its token changes",
                },
              }),
              // The global client named in a claim of delegation (RFC 8693 4.1 act, 4.4 may_act): the
              // token's client is still the one azp and sub name, the actor or authorized actor being
              // another party.
              ...(
                [
                  ['act-of-global', 'an actor claim (act.sub)', 'act'],
                  ['may-act-of-global', 'a may_act claim (may_act.sub)', 'may_act'],
                ] as const
              ).map(([key, where, claim]) =>
                resigned({
                  operator: 'other-owner',
                  key,
                  says: `of a client that is not global, with ${where} naming the global client`,
                  apply: (template, context) =>
                    resignClaims((c) => ({
                      ...asClient(c, context.clients.non_global ?? 'not-a-client'),
                      [claim]: { sub: `${context.clients.global}${observed.tokens.subject_suffix}` },
                    }))(template),
                  needs: [{ role: 'non_global' }],
                  expect: {
                    checks: [
                      { clause: card.globalClient!.clause, outcome: refused },
                      { clause: card.globalClient!.statusClause, outcome: status(401) },
                    ],
                    source: "spec 5 rule 4 and 7: the token's client (azp, sub) is not global, whoever acts or may act for it",
                  },
                }),
              ),
              // Not global, its token naming the tenant as the request reached it (iss <origin>/, aud
              // <origin>/api/v2/), where the target issues tokens under that identity too: the rule
              // holds for every issuer, not for the canonical one alone.
              resigned({
                operator: 'other-owner',
                key: 'non-global-reached-issuer',
                says: 'of a client that is not global, its iss and aud naming the tenant at the address the request reached',
                apply: (template, context) =>
                  resignClaims((c) => {
                    const claims = asClient(c, context.clients.non_global ?? 'not-a-client');
                    return context.origin === undefined
                      ? claims
                      : { ...claims, iss: `${context.origin}/`, aud: `${context.origin}${audiencePath}` };
                  })(template),
                needs: [{ role: 'non_global' }],
                expect: {
                  checks: [{ clause: card.globalClient.clause, outcome: refused }],
                  source: "spec 5 rule 4: no global client's token, whichever issuer it names",
                },
              }),
              // Not global, its token holding every scope of the catalogue: the rule holds whatever
              // scopes the token holds, an administrator's included.
              resigned({
                operator: 'other-owner',
                key: 'non-global-every-scope',
                says: 'of a client that is not global, holding every scope of the catalogue',
                apply: (template, context) =>
                  resignClaims((c) => ({ ...asClient(c, context.clients.non_global ?? 'not-a-client'), scope: scopeCatalogue.join(' ') }))(
                    template,
                  ),
                needs: [{ role: 'non_global' }],
                expect: {
                  checks: [
                    { clause: card.globalClient.clause, outcome: refused },
                    { clause: card.globalClient.statusClause, outcome: status(401) },
                  ],
                  source: 'spec 5 rule 4 and 7: a client that is not global is refused 401, whatever scopes its token holds',
                },
              }),
              // Not global and short of the scope: two causes, authentication decided first (observed order).
              resigned({
                operator: 'other-owner',
                key: 'non-global-without-scope',
                says: 'of a client that is not global, without the scope either',
                apply: (template, context) =>
                  resignClaims((c) => withScopeReplaced(asClient(c, context.clients.non_global ?? 'not-a-client'), card.scope.value, []))(
                    template,
                  ),
                needs: [{ role: 'non_global' }],
                expect: {
                  checks: [
                    { clause: card.globalClient.clause, outcome: refused },
                    { clause: 'auth.order', outcome: status(401) },
                  ],
                  source: 'spec 5 rule 4; observed: authentication (401) before authorization (403)',
                },
              }),
            ]
          : []),
        // The claims' JSON object followed by more text (" x", then a second object): no JSON text
        // (RFC 8259 2: one value), so no claims set (RFC 7519 7.2), though a streaming decoder that
        // reads the first value and stops (Go's json.Decoder) takes the claims.
        ...[
          ['trailing-data', 'followed by " x" (the payload no JSON text)', ' x'],
          ['trailing-object', 'followed by a second JSON object (the payload no JSON text)', '{"sub":"x"}'],
        ].map(([key, says, after]) =>
          resigned({
            operator: 'extra-part',
            key: key!,
            says: says!,
            apply: edited({ resign: { claimsText: (c) => `${JSON.stringify(c)}${after!}` } }),
            expect: {
              checks: unauthenticated(card),
              source: 'spec 7: the token is invalid (RFC 7519 7.2: the payload is a JSON object; RFC 8259 2: a JSON text is one value)',
            },
            extended: true,
          }),
        ),
        // The JOSE header's or the claims' JSON preceded by a byte order mark: JSON may not be sent
        // with one (RFC 8259 8.1), and the tenant issues none, though a parser that skips it (every
        // Jackson byte parser, a UTF-8 decoder with BOM handling) reads the valid object.
        ...(
          [
            ['header-leading-bom', "with the JOSE header's JSON preceded by a byte order mark (U+FEFF)", 'auth.token.header', true],
            ['leading-bom', "with the claims' JSON preceded by a byte order mark (U+FEFF)", 'auth.token.claims', false],
          ] as const
        ).map(([key, says, clause, header]) =>
          resigned({
            operator: 'extra-part',
            key,
            says,
            apply: edited({
              resign: header ? { headerText: (h) => `\ufeff${JSON.stringify(h)}` } : { claimsText: (c) => `\ufeff${JSON.stringify(c)}` },
            }),
            expect: {
              checks: refusedByObservedRule(clause),
              source: 'observed: the tenant issues no token whose JSON starts with a BOM (RFC 8259 8.1: JSON is sent without one)',
            },
            extended: true,
          }),
        ),
        fine(
          'unknown-claim',
          'with an unknown claim added',
          'extra-part',
          (c) => ({ ...c, 'urn:conformance-suite:claim': true }),
          'auth.token.claims',
          'unknown claims are ignored (RFC 7519 4)',
        ),
      ];
    default:
      return [
        unknown('absent', 'absent', 'absent', set(undefined), 'what the service does with gty is not known'),
        unknown('other', 'another grant type', 'near-value', set('password'), 'what the service does with gty is not known'),
        // Whatever gty says, a client that is not global stays refused where the operation needs a
        // global one: its token without gty (taken for some legacy kind of token) included.
        ...(card.globalClient
          ? [
              resigned({
                operator: 'other-owner',
                key: 'non-global-without-gty',
                says: 'absent, in a token of a client that is not global',
                apply: (template, context) =>
                  resignClaims((c) => {
                    const client = context.clients.non_global ?? 'not-a-client';
                    return claimSet(
                      claimSet(claimSet(c, 'azp', client), 'sub', `${client}${observed.tokens.subject_suffix}`),
                      'gty',
                      undefined,
                    );
                  })(template),
                needs: [{ role: 'non_global' }],
                expect: {
                  checks: [{ clause: card.globalClient.clause, outcome: refused }],
                  source: "spec 5 rule 4: no global client's token, however it is read",
                },
              }),
            ]
          : []),
      ];
  }
}

/** The claims as JSON text with `member` written twice, `first` and then `last` (a claims object cannot hold both). */
function claimTwice(claims: JsonRecord, member: string, first: unknown, last: unknown): string {
  const text = JSON.stringify(claimSet(claims, member, first));
  return `${text.slice(0, -1)},${JSON.stringify(member)}:${JSON.stringify(last)}}`;
}

/** The claims of a token of another client: azp and sub name it. */
function asClient(claims: JsonRecord, client: string): JsonRecord {
  return { ...claims, azp: client, sub: `${client}${observed.tokens.subject_suffix}` };
}

/** The claims with the operation's scope replaced by `replacement` (removed where it is empty); the other scopes stay. */
function withScopeReplaced(claims: JsonRecord, scope: string, replacement: string[]): JsonRecord {
  const others = (typeof claims.scope === 'string' ? claims.scope : '').split(' ').filter((s) => s.length > 0 && s !== scope);
  return { ...claims, scope: [...others, ...replacement].join(' ') };
}

/**
 * The role without the scope, its request written another way that still asks for the operation:
 * a permission table keyed by the URL as sent finds no entry for it, and one that lets such
 * requests through serves them. And the request asking for the scope in a query parameter
 * (scope=<its scope>, the name OAuth gives a request for scopes): a request cannot grant itself a
 * scope its token lacks, though a parameter meant to narrow the token's scopes, applied as a union
 * (or in their place), grants it.
 */
function respelledWithoutScope(card: OperationCard, source: string): Made[] {
  return (
    [
      [
        'role-without-scope-query',
        'missing, the URL with a query string (?x=1)',
        (t: RequestTemplate) => ({ ...t, query: [...t.query, ['x', '1']] }),
      ],
      [
        'role-without-scope-trailing-slash',
        'missing, the path with a trailing slash',
        (t: RequestTemplate) => ({ ...t, path: [...t.path, { literal: '' }] }),
      ],
      [
        'role-without-scope-scope-parameter',
        `missing, the URL asking for it in a scope query parameter (?scope=${card.scope.value})`,
        (t: RequestTemplate) => ({ ...t, query: [...t.query, ['scope', card.scope.value]] }),
      ],
    ] as const
  )
    .map(([key, says, spelled], index): Made => ({
      operator: 'other-owner',
      key,
      says,
      apply: (template) => spelled(withCredential({ kind: 'role', role: card.roleWithoutScope })(template)) as RequestTemplate,
      needs: [{ role: card.roleWithoutScope }],
      expect: {
        checks: [{ clause: card.scope.clause, outcome: refused }],
        source: `${source}; a query string (one asking for the scope included) or a trailing slash does not lift it (any refusal: what else the target says of them is not known)`,
      },
      ...(index > 0 ? { extended: true } : {}),
    }))
    .concat(gatewayScopeHeaders(card, source));
}

/**
 * Headers an API gateway adds once it has verified a token, naming the scopes it holds (Kong's
 * X-Authenticated-Scope, and the names other gateways and auth proxies use), sent by the client
 * itself: a service behind a gateway that trusts them without the gateway stripping what clients
 * send grants a scope the token lacks. One request carrying them all, at every operation.
 */
const GATEWAY_SCOPE_HEADERS = [
  'x-scopes',
  'x-scope',
  'x-authenticated-scope',
  'x-auth-scopes',
  'x-auth-request-scopes',
  'x-forwarded-scopes',
  'x-granted-scopes',
  'x-oauth-scopes',
  'x-permissions',
];

function gatewayScopeHeaders(card: OperationCard, source: string): Made[] {
  return [
    {
      operator: 'other-owner',
      key: 'role-without-scope-gateway-headers',
      says: `missing, the request naming it in the headers a gateway adds after verifying a token (${GATEWAY_SCOPE_HEADERS.join(', ')})`,
      apply: (t) => ({
        ...withCredential({ kind: 'role', role: card.roleWithoutScope })(t),
        headers: { ...t.headers, ...Object.fromEntries(GATEWAY_SCOPE_HEADERS.map((name) => [name, [card.scope.value]])) },
      }),
      needs: [{ role: card.roleWithoutScope }],
      expect: {
        checks: [{ clause: card.scope.clause, outcome: refused }],
        source: `${source}; only the token grants scopes, and a header the client sends is no token`,
      },
    },
  ];
}

/**
 * The scopes a permission table derived from the operation's path would name: its action on each
 * run of consecutive static segments of the path, written as a resource name ("-" as "_";
 * read:connections, read:vault_connections for /flows/vault/connections/{id}), but the
 * operation's own scope and its other-resource row's. Scopes of other resources (the catalogue
 * grants some of them for other endpoints), none of them the operation's.
 */
function pathNamedScopes(card: OperationCard): string[] {
  const scope = card.scope.value;
  const action = scope.slice(0, scope.indexOf(':'));
  const runs: string[][] = [[]];
  for (const segment of card.spec.pathTemplate.split('/').filter((s) => s.length > 0)) {
    if (segment.startsWith('{')) runs.push([]);
    else runs[runs.length - 1]!.push(segment.replace(/-/g, '_'));
  }
  const named = runs.flatMap((run) =>
    run.flatMap((_, from) => run.slice(from).map((__, length) => run.slice(from, from + length + 1).join('_'))),
  );
  return [...new Set(named.map((resource) => `${action}:${resource}`))].filter((s) => s !== scope && s !== card.scope.otherResource);
}

/** Actions a scope may be spelled with beyond the catalogue's four: coarse ones some permission models use. */
const COARSE_ACTIONS = ['write', 'manage', 'admin'] as const;

/**
 * The operation's resource with every other action (the catalogue's four and the coarse ones), but
 * the one its other-action row already sends.
 */
function otherActionsOnResource(card: OperationCard): string[] {
  const scope = card.scope.value;
  const resource = scope.slice(scope.indexOf(':') + 1);
  return [...scopeActions, ...COARSE_ACTIONS]
    .map((action) => `${action}:${resource}`)
    .filter((near) => near !== scope && near !== otherActionOf(scope));
}

/**
 * Every scope of the catalogue on a resource the request names: a path segment's ("-" as "_"),
 * or a top-level body field's stem ("enabled_clients" -> clients, "connection_config" and
 * "connection_id" -> connections), matched as written or with an "s" added. Not the operation's
 * own scope, nor the rows' other-resource and path-named ones.
 */
function scopesOfNamedResources(card: OperationCard): string[] {
  const words = card.spec.pathTemplate
    .split('/')
    .filter((segment) => segment.length > 0 && !segment.startsWith('{'))
    .map((segment) => segment.replace(/-/g, '_'));
  if (card.body) {
    const properties = (schemaAt({ schema: card.body.schema }).properties ?? {}) as Record<string, unknown>;
    words.push(...Object.keys(properties).map((name) => name.replace(/^enabled_/, '').replace(/_(config|id)$/, '')));
  }
  const resources = new Set(words.flatMap((word) => [word, `${word}s`]));
  const taken = new Set([card.scope.value, card.scope.otherResource, otherActionOf(card.scope.value), ...pathNamedScopes(card)]);
  return scopeCatalogue.filter((scope) => resources.has(scope.slice(scope.indexOf(':') + 1)) && !taken.has(scope));
}

/**
 * The role without the scope, its request to an operation that takes no body carrying the JSON
 * body {}: a body the spec does not describe (what the service answers it is not stated) does
 * not lift the scope rule, though a handler chosen by the body's presence may check another scope.
 * 403 as authorization is decided before the body is read (observed order).
 */
function withBodyWithoutScope(card: OperationCard): Made[] {
  if (card.body !== undefined) return [];
  return [
    {
      operator: 'other-owner',
      key: 'role-without-scope-json-body',
      says: 'missing, the request carrying a JSON body {} the operation does not take',
      apply: (t) => ({
        ...withCredential({ kind: 'role', role: card.roleWithoutScope })(t),
        headers: { ...t.headers, 'content-type': ['application/json'] },
        body: { json: {} },
      }),
      needs: [{ role: card.roleWithoutScope }],
      extended: true,
      expect: {
        checks: [
          { clause: card.scope.clause, outcome: refused },
          { clause: 'auth.order', outcome: status(403) },
        ],
        source: 'the scope is required whatever the request carries; observed: authorization (403) before the body',
      },
    },
  ];
}

/**
 * The role without the scope, its request carrying each optional header parameter of the
 * operation at a valid value (the custom domain a ticket is made for): the scope rule holds for
 * every request, though a proxy in front that handles such requests may pass them on under a
 * credential of its own (a confused deputy). 403 as without the header.
 */
function withOptionalHeadersWithoutScope(card: OperationCard): Made[] {
  return card.spec.parameters
    .filter((parameter) => parameter.in === 'header' && !parameter.required)
    .map((parameter) => ({
      operator: 'other-owner' as const,
      key: `role-without-scope-${parameter.name}`,
      says: `missing, the request carrying the ${parameter.name} header (${A_HEADER_VALUE})`,
      apply: (t: RequestTemplate, context: RequestContext) => ({
        ...withCredential({ kind: 'role', role: card.roleWithoutScope })(t),
        headers: { ...t.headers, [headerNamed(parameter.name, context)]: [A_HEADER_VALUE] },
      }),
      needs: [{ role: card.roleWithoutScope }],
      extended: true,
      expect: {
        checks: [
          { clause: card.scope.clause, outcome: refused },
          { clause: 'auth.order', outcome: status(403) },
        ],
        source: 'the scope is required whatever the request carries; observed: authorization (403) before the parameters are read',
      },
    }));
}

/**
 * The host and port of a URL's authority: the port one more than the one it names (or its
 * scheme's default port's), 8443 or 8080 where that would not be a port; the rest as written.
 */
export function withAnotherPort(url: string): string {
  const match = /^([a-z][a-z0-9+.-]*:\/\/(?:[^/?#@]*@)?(?:\[[^\]]*\]|[^/?#:]*))(?::(\d*))?/i.exec(url);
  if (!match) return url;
  const written = match[2] ? Number(match[2]) : /^https:/i.test(url) ? 443 : 80;
  const port = written + 1 <= 65535 && written !== 442 ? written + 1 : /^https:/i.test(url) ? 8443 : 8080;
  return `${match[1]}:${port}${url.slice(match[0].length)}`;
}

/**
 * Tokens naming the tenant as the request reached it, on the same host at another port (iss
 * <scheme>://<host>:<another port>/, aud that origin's /api/v2/), signed with the tenant's key:
 * another origin, another issuer, though a check that matches loopback issuers by scheme and host
 * name alone (the port changing from one run to the next) takes a service on another port of the
 * same machine for the tenant. The issuer alone at another port, and the audience alone, too.
 */
function reachedIdentityOtherPort(card: OperationCard): Made[] {
  return (
    [
      [
        'reached-issuer-another-port',
        "the tenant's address as the request reached it but at another port, aud that origin's /api/v2/",
        true,
        true,
      ],
      [
        'reached-issuer-only-another-port',
        "the tenant's address as the request reached it but at another port, aud the tenant's as the request reached it",
        true,
        false,
      ],
    ] as const
  ).map(([key, says, issuer, audience], index) => ({
    ...resigned({
      operator: 'near-value',
      key,
      says,
      apply: (template, context) =>
        resignClaims((c) => {
          if (context.origin === undefined) return c;
          const other = withAnotherPort(context.origin);
          return {
            ...c,
            iss: `${issuer ? other : context.origin}/`,
            aud: `${audience ? other : context.origin}${audiencePath}`,
          };
        })(template),
      needs: [{ context: (c: RequestContext) => (c.origin ? undefined : 'the target names no origin the interface is reached at') }],
      expect: {
        checks: unauthenticated(card),
        source: 'spec 7: the token is invalid (its issuer names another origin: RFC 6454 4, a port is part of it)',
      },
    }),
    ...(index > 0 ? { extended: true } : {}),
  }));
}

/**
 * The forgeries that need no key, made of a token naming the tenant as the request reached it (iss
 * <origin>/, aud <origin>/api/v2/; a test double issues tokens under that identity too, as it is
 * reached on a loopback address): the signature is checked for every issuer, though a shortcut for
 * tokens a service minted for itself trusts them. Made with the target's key.
 */
function reachedIdentityForgeries(card: OperationCard): Made[] {
  return (
    [
      ['tampered-reached-issuer', 'with one character changed', 'tampered-signature'],
      ['alg-none-reached-issuer', 'removed, alg none', 'alg-none'],
    ] as const
  ).map(([key, says, forge]) =>
    resigned({
      operator: 'forgery',
      key,
      says: `${says}, in a token naming the tenant at the address the request reached (iss <origin>/, aud <origin>/api/v2/)`,
      apply: (template, context) =>
        edited({
          resign: {
            claims: (c) =>
              context.origin === undefined ? c : { ...c, iss: `${context.origin}/`, aud: `${context.origin}${audiencePath}` },
          },
          forge,
        })(template),
      needs: [{ context: (c: RequestContext) => (c.origin ? undefined : 'the target names no origin the interface is reached at') }],
      expect: {
        checks: unauthenticated(card, { signature: true }),
        source: 'spec 7: the signature fails validation, whichever issuer the token names',
      },
    }),
  );
}

/**
 * The token's header as issued (RS256) but its signature made by the tenant's own key under each
 * other RSA algorithm of JWA (RFC 7518 3.3, 3.5): PSS padding, or PKCS#1 v1.5 over another hash.
 * The header's alg says how the signature is checked (RFC 7515 5.2), so none is a valid RS256
 * signature, though a verifier that tries other paddings or hashes when RS256 fails (a fallback
 * kept from a key rotation) finds the tenant's key signed it. Made with the target's key.
 */
function otherRsaSignatures(card: OperationCard): Made[] {
  return otherRsaAlgorithms
    .filter((alg) => alg !== observed.tokens.alg)
    .map((alg, index) => ({
      ...resigned({
        operator: 'forgery',
        key: `made-as-${alg.toLowerCase()}`,
        says: `made by the tenant key as ${alg} (${alg.startsWith('PS') ? 'RSASSA-PSS' : 'PKCS#1 v1.5'} over SHA-${alg.slice(2)}), the header still saying ${observed.tokens.alg}`,
        apply: edited({ forge: `signature-as-${alg}` }),
        expect: {
          checks: unauthenticated(card, { signature: true }),
          source: `spec 7: the signature fails validation (RFC 7515 5.2: checked as the header's alg, ${observed.tokens.alg}, says)`,
        },
      }),
      ...(index > 0 ? { extended: true } : {}),
    }));
}

/**
 * An RS256 signature is exactly as long as the key's modulus (RFC 8017 8.2.1, RFC 7518 3.3): one
 * whose first byte is zero, sent without it, is no signature, though a verifier that reads it as a
 * big integer (or pads it to the key's size) finds it valid. Made with the target's key.
 */
function leadingZeroDropped(card: OperationCard): Made {
  return resigned({
    operator: 'truncate',
    key: 'leading-zero-dropped',
    says: 'one starting with a zero byte (a jti chosen for it), sent without that byte',
    apply: edited({ forge: 'leading-zero-signature' }),
    expect: {
      checks: unauthenticated(card, { signature: true }),
      source: 'spec 7: the signature fails validation (RFC 8017 8.2.2: a signature one byte short of the modulus is invalid)',
    },
  });
}

/**
 * The scope claim is one string of scopes separated by spaces (observed.yaml tokens.scope_claim,
 * RFC 6749 3.3): the operation's scope joined to another by any other separator makes one scope of
 * the catalogue's none.
 */
function otherSeparators(card: OperationCard, source: string): Made[] {
  const scope = card.scope.value;
  return (
    [
      ['plus-separated', 'a plus (+, a space form-encoded)', '+', 'whitespace', false],
      ['semicolon-separated', 'a semicolon', ';', 'whitespace', false],
      ['percent-space-separated', '%20 (a space percent-encoded)', '%20', 'encoding', true],
      ['tab-separated', 'a tab', '\t', 'whitespace', true],
      ['pipe-separated', 'a pipe (|)', '|', 'whitespace', true],
    ] as const
  ).map(([key, by, separator, operator, extended]) => ({
    ...resigned({
      operator,
      key,
      says: `joined to another scope by ${by}`,
      apply: resignClaims((c) => withScopeReplaced(c, scope, [`read:users${separator}${scope}`])),
      expect: { checks: forbidden(card), source },
    }),
    ...(extended ? { extended } : {}),
  }));
}

/**
 * Claims other issuers carry authority in, each naming the scope (or, org_id, seeming to speak for
 * an organization's administrator): key, what it says, the claims added, and whether extended.
 */
function authorityClaims(scope: string): Array<[string, string, (c: JsonRecord) => JsonRecord, boolean]> {
  return [
    ['in-permissions', `listed in a permissions claim (["${scope}"], as RBAC adds it)`, () => ({ permissions: [scope] }), false],
    ['in-scopes-list', `listed in a scopes claim (["${scope}"])`, () => ({ scopes: [scope] }), false],
    ['in-scp-string', `in an scp claim as a string ("${scope}", as Azure issues it)`, () => ({ scp: scope }), true],
    ['in-roles', `listed in a roles claim (["${scope}"])`, () => ({ roles: [scope] }), true],
    [
      'in-namespaced-claim',
      `in a namespaced claim of the issuer (<iss>scope: "${scope}")`,
      (c) => ({ [`${typeof c.iss === 'string' ? c.iss : 'https://issuer.example.com/'}scope`]: scope }),
      true,
    ],
    ['with-org-id', 'the token carrying an organization (org_id: "org_conformance")', () => ({ org_id: 'org_conformance' }), false],
    // The groups claims of Cognito and of OpenID providers, which some resolvers authorise by.
    [
      'in-cognito-groups',
      `listed in a cognito:groups claim (["${scope}"], as Cognito issues groups)`,
      () => ({ 'cognito:groups': [scope] }),
      true,
    ],
    ['in-groups', `listed in a groups claim (["${scope}"])`, () => ({ groups: [scope] }), true],
  ];
}

/**
 * A word in the other grammatical number, as an inflector or a hand-made rule writes it: a plural
 * made singular (deliveries -> delivery, and the naive deliverie; tickets -> ticket) or made plural
 * again by a naive rule (deliveries -> deliverys, an irregular plural spelled regularly), a singular
 * made plural (delivery -> deliveries, ticket -> tickets). Each differs from the word.
 */
function otherNumbers(word: string): string[] {
  if (word.endsWith('ies')) return [`${word.slice(0, -3)}y`, word.slice(0, -1), `${word.slice(0, -3)}ys`];
  if (word.endsWith('s') && !word.endsWith('ss')) return [word.slice(0, -1)];
  if (/[^aeiou]y$/.test(word)) return [`${word.slice(0, -1)}ies`, `${word}s`];
  return [`${word}s`];
}

/**
 * The scope (action:resource) with its resource in the other number: its last word, and its whole
 * name where that is one word. Keyed number-<the near resource>.
 */
function otherNumberScopes(scope: string): Array<[string, string, boolean]> {
  const at = scope.indexOf(':');
  const [action, resource] = [scope.slice(0, at), scope.slice(at + 1)];
  const words = resource.split('_');
  const last = words.pop() ?? '';
  const near = otherNumbers(last).map((other) => `${action}:${[...words, other].join('_')}`);
  // An earlier word in the plural made singular (flows_vault_connections as flow_vault_connections):
  // a resource named after the singular model, as an ORM or a hand-made catalogue writes it.
  const earlier = words.flatMap((word, index) =>
    /[^s]s$/.test(word) ? [`${action}:${[...words.slice(0, index), word.slice(0, -1), ...words.slice(index + 1), last].join('_')}`] : [],
  );
  return [...new Set([...near, ...earlier])]
    .filter((s) => s !== scope)
    .map((s) => [`number-${s.slice(at + 1)}`, s, earlier.includes(s) || s.endsWith('ys')]);
}

/** The HTTP verbs a REST layer maps onto the catalogue's actions (delete is both, so none differs). */
const VERB_ALIASES: Record<string, readonly string[]> = { create: ['post'], read: ['get'], update: ['patch', 'put'], delete: ['delete'] };

/** The scope with its action replaced by each HTTP verb that names it: [verb, scope]. */
function verbAliasScopes(scope: string): Array<[string, string]> {
  const at = scope.indexOf(':');
  return (VERB_ALIASES[scope.slice(0, at)] ?? []).map((verb) => [verb, `${verb}${scope.slice(at)}`]);
}

/** A scope with its resource in camel case (update:event_deliveries as update:eventDeliveries). */
function camelCased(scope: string): string {
  return scope.replace(/_([a-z])/g, (_all, letter: string) => letter.toUpperCase());
}

/** A scope with `character` put after its resource's first underscore, or else after its colon. */
function withInvisibleInside(scope: string, character: string): string {
  const at = scope.includes('_') ? scope.indexOf('_') + 1 : scope.indexOf(':') + 1;
  return `${scope.slice(0, at)}${character}${scope.slice(at)}`;
}

/** A text with its first ASCII letter written in its fullwidth form ("update" as "ｕpdate"). */
const withFullwidthFirstLetter = (text: string): string => withFullwidth(text, /[A-Za-z]/);

/**
 * The operation's scope in the token's scope claim, varied.
 * Long: one entry per variation, read top to bottom as `--list` prints them.
 */
function scopeTokenVariants(card: OperationCard): Made[] {
  const scope = card.scope.value;
  const [action, resource] = [scope.slice(0, scope.indexOf(':')), scope.slice(scope.indexOf(':') + 1)];
  const source = card.scope.level === 'contract' ? 'spec 5: the scope is required' : 'observed: the scope is required';
  const replaced = (key: string, says: string, operator: Made['operator'], replacement: (s: string) => string[], allowed = false): Made =>
    resigned({
      operator,
      key,
      says,
      apply: resignClaims((c) => withScopeReplaced(c, scope, replacement(scope))),
      expect: allowed
        ? { checks: allowedByScope(card), source: 'scopes are compared whole, and the token holds it' }
        : { checks: forbidden(card), source },
    });
  const configured = (role: 'other_action' | 'other_resource', says: string): Made => ({
    operator: 'other-owner',
    key: `${role}-role`,
    says,
    apply: withCredential({ kind: 'role', role }),
    needs: [{ role }],
    expect: { checks: forbidden(card), source },
  });
  const variants: Made[] = [
    replaced('absent', 'left out, the other scopes kept', 'absent', () => []),
    replaced('case', 'in capitals', 'case', (s) => [s.toUpperCase()]),
    replaced('contains', `replaced by not_${scope}, which contains it`, 'near-value', (s) => [`not_${s}`]),
    replaced('extends', `replaced by ${scope}_all, which extends it`, 'extra-part', (s) => [`${s}_all`]),
    replaced('truncate', 'without its last character', 'truncate', (s) => [s.slice(0, -1)]),
    replaced('comma-separated', 'joined to another scope by a comma', 'whitespace', (s) => [`read:users,${s}`]),
    // Written in a compatibility form that NFKC (or a width-folding helper) maps onto it: its colon
    // as the fullwidth colon, its first letter as its fullwidth twin. Other strings, compared as
    // they are; a check that normalises held scopes first grants what was not granted.
    {
      ...replaced(
        'fullwidth-colon',
        `with its colon written as the fullwidth colon U+FF1A (${withFullwidth(scope, /:/)})`,
        'encoding',
        (s) => [withFullwidth(s, /:/)],
      ),
      extended: true,
    },
    {
      ...replaced(
        'fullwidth-letter',
        `with its first letter written in its fullwidth form (${withFullwidthFirstLetter(scope)})`,
        'encoding',
        (s) => [withFullwidthFirstLetter(s)],
      ),
      extended: true,
    },
    // With an invisible format character (Unicode Cf) inside it or before it: another string, as
    // scopes are compared whole, though a check that "sanitises" input of zero-width characters,
    // soft hyphens and byte-order marks first grants it. Inside its resource, after the first
    // underscore or else the colon, where a copy and paste from a document would leave one.
    ...(
      [
        ['zero-width-space', 'a zero-width space U+200B inside it', '\u200b', false],
        ['soft-hyphen', 'a soft hyphen U+00AD inside it', '\u00ad', true],
        ['word-joiner', 'a word joiner U+2060 inside it', '\u2060', true],
        ['byte-order-mark', 'a byte-order mark U+FEFF before it', '\ufeff', true],
      ] as const
    ).map(([key, says, character, extended]) => ({
      ...replaced(key, `with ${says}`, 'encoding', (s) => [
        key === 'byte-order-mark' ? `${character}${s}` : withInvisibleInside(s, character),
      ]),
      ...(extended ? { extended } : {}),
    })),
    // With a letter accented, precomposed (its first "e" as "é") or as a combining mark after it
    // (U+0301, the NFD form): another string, though a check that folds accents away (NFD, then the
    // combining marks dropped, as a search index's ASCII folding does) grants it.
    ...(/e/.test(scope)
      ? [
          replaced('accented', `with its first "e" written "é" (${scope.replace('e', 'é')})`, 'encoding', (s) => [s.replace('e', 'é')]),
          replaced('combining-mark', 'with a combining acute accent U+0301 after its first letter', 'encoding', (s) => [
            `${s.slice(0, 1)}\u0301${s.slice(1)}`,
          ]),
        ]
      : []),
    // In braces ({scope}, a PostgreSQL array literal of one item), or after the token's audience (the
    // way another platform qualifies a permission by its API's identifier): other strings, though a
    // check that reads the claim out of an array column, or cuts the audience from the front, grants it.
    replaced('braces', `in braces ({${scope}})`, 'extra-part', (s) => [`{${s}}`]),
    // Its colon written "_" (update_event_deliveries, a name a GraphQL enum or an identifier can
    // hold): another string, though a gateway that maps such names back grants it.
    replaced('colon-as-underscore', `with its colon written "_" (${scope.replace(':', '_')})`, 'near-value', (s) => [s.replace(':', '_')]),
    // Its colon written "/" (a Clojure namespaced keyword, a path-style permission): another string,
    // though a check that maps one separator onto the other grants it.
    replaced('colon-as-slash', `with its colon written "/" (${scope.replace(':', '/')})`, 'near-value', (s) => [s.replace(':', '/')]),
    // Its colon percent-encoded (%3A): another string, though a layer that URL-decodes the claims it
    // passes on (a mapping template copied from a query string's) grants it.
    replaced('colon-percent-encoded', `with its colon percent-encoded (${scope.replace(':', '%3A')})`, 'encoding', (s) => [
      s.replace(':', '%3A'),
    ]),
    // A letter written as a character a case mapping takes onto it (values.ts: "İ" for "i" in a
    // Turkish locale, the long s, the Kelvin sign): another string, though a check that folds the
    // held scopes' case first grants it.
    ...CASE_MAPPING_TWINS.filter(({ letter, twin }) => withCaseMappingTwin(scope, letter, twin) !== undefined).map(
      ({ key, letter, twin, says }) => ({
        ...replaced(key, `with ${says} (${withCaseMappingTwin(scope, letter, twin)!})`, 'encoding', (s) => [
          withCaseMappingTwin(s, letter, twin) ?? s,
        ]),
        extended: true,
      }),
    ),
    // With Spring Security's authority prefix (SCOPE_<scope>): another string, though a check that
    // strips the prefix from both sides first grants it.
    replaced('authority-prefixed', `with Spring Security's authority prefix (SCOPE_${scope})`, 'extra-part', (s) => [`SCOPE_${s}`]),
    resigned({
      operator: 'extra-part',
      key: 'audience-prefixed',
      says: `after the token's audience (<aud>${scope})`,
      apply: resignClaims((c) => withScopeReplaced(c, scope, [`${typeof c.aud === 'string' ? c.aud : JSON.stringify(c.aud)}${scope}`])),
      expect: { checks: forbidden(card), source },
    }),
    // In quotes, or followed by a punctuation mark (as a scope copied out of prose or a JSON list):
    // another string, though a check that strips quotes and trailing punctuation first grants it.
    replaced('double-quoted', `in double quotes ("${scope}")`, 'extra-part', (s) => [`"${s}"`]),
    { ...replaced('single-quoted', `in single quotes ('${scope}')`, 'extra-part', (s) => [`'${s}'`]), extended: true },
    replaced('trailing-period', `followed by a period (${scope}.)`, 'extra-part', (s) => [`${s}.`]),
    { ...replaced('trailing-semicolon', `followed by a semicolon (${scope};)`, 'extra-part', (s) => [`${s};`]), extended: true },
    // Its resource in camel case (update:eventDeliveries): another string, though a check that folds
    // a resource's word boundaries (as one written for code identifiers) grants it.
    ...(scope.includes('_')
      ? [replaced('camel-case', `with its resource in camel case (${camelCased(scope)})`, 'near-value', (s) => [camelCased(s)])]
      : []),
    // Its underscores written as hyphens (update:event-deliveries): another string, which a check
    // that folds the two separators of a resource name (a URL slug's and an identifier's) takes for it.
    ...(scope.includes('_')
      ? [
          replaced('hyphens', `with its underscores written as hyphens (${scope.replace(/_/g, '-')})`, 'near-value', (s) => [
            s.replace(/_/g, '-'),
          ]),
        ]
      : []),
    ...otherSeparators(card, source),
    // Its resource in the other grammatical number, its action named by an HTTP verb: other
    // strings, though a check that runs both through an inflector or a verb map first grants them.
    ...otherNumberScopes(scope).map(([key, near, extended]) => ({
      ...replaced(key, `with its resource in the other number (${near})`, 'near-value', () => [near]),
      ...(extended ? { extended } : {}),
    })),
    ...verbAliasScopes(scope).map(([verb, near], index) => ({
      ...replaced(`verb-alias-${verb}`, `with its action named by the HTTP verb ${verb} (${near})`, 'near-value', () => [near]),
      ...(index > 0 ? { extended: true } : {}),
    })),
    replaced('other-action', `replaced by ${otherActionOf(scope)} (another action on its resource)`, 'other-owner', (s) => [
      otherActionOf(s),
    ]),
    replaced('other-resource', `replaced by ${card.scope.otherResource} (its action on another resource)`, 'other-owner', () => [
      card.scope.otherResource,
    ]),
    // Another action on its resource, the request naming that action's method in the override
    // headers (X-HTTP-Method-Override and its kin): refused as without them, though a gateway that
    // picks the permission by the overridden method, while the service behind it ignores the header,
    // asks for that action's scope.
    ...overriddenForOtherAction(scope).map(({ method, headers }) => {
      const variant = replaced(
        'other-action-method-overridden',
        `replaced by ${otherActionOf(scope)} (another action on its resource), the request naming ${method} in X-HTTP-Method-Override, X-HTTP-Method and X-Method-Override`,
        'other-owner',
        (s) => [otherActionOf(s)],
      );
      return {
        ...variant,
        apply: (template: RequestTemplate, context: RequestContext) => {
          const varied = variant.apply(template, context);
          return { ...varied, headers: { ...varied.headers, ...headers } };
        },
        extended: true,
      };
    }),
    // Every other action on its resource, whether or not the catalogue has it (a role ladder that lets
    // a "higher" action stand for a lower one, a check on the resource alone), and every scope of the
    // catalogue on a resource the request names (a check that lets the scope of what the operation
    // touches stand for its own): none of them is its scope.
    ...otherActionsOnResource(card).map((near) => ({
      ...replaced(
        `action-${near.slice(0, near.indexOf(':'))}`,
        `replaced by ${near} (another action on its resource)`,
        'other-owner',
        () => [near],
      ),
      extended: true,
    })),
    // Sent with the operation's fullest body, which names those resources (a connection, clients,
    // organizations): a guard that picks the scope by what the body holds asks for theirs then.
    ...scopesOfNamedResources(card).map((near) => {
      const variant = replaced(
        `named-resource-${near}`,
        `replaced by ${near} (a scope of a resource the request names)`,
        'other-owner',
        () => [near],
      );
      return { ...variant, apply: withFullestBody(card, (template, context) => variant.apply(template, context)), extended: true };
    }),
    // Wildcards: the catalogue has none (spec 5, action:resource), so a token holding one holds no scope of it.
    // The scope qualified by another API's identifier (as some issuers namespace scopes): another string.
    replaced('api-prefixed', `prefixed with another API's identifier (https://other-api.example.com/${scope})`, 'extra-part', (s) => [
      `https://other-api.example.com/${s}`,
    ]),
    // Qualified by an application's name, as XSUAA writes scopes (<xsappname>.<scope>), and by an
    // API's URI as Entra ID does (api://<app>/<scope>): other strings, though a check that takes the
    // part after the last "." or "/" grants it.
    ...(
      [
        ['application-prefixed', `prefixed with an application's name (other-app!t1.${scope})`, (s: string) => `other-app!t1.${s}`],
        ['api-uri-prefixed', `prefixed with an application's API URI (api://other-app/${scope})`, (s: string) => `api://other-app/${s}`],
      ] as const
    ).map(([key, says, prefixed]) => ({ ...replaced(key, says, 'extra-part', (s) => [prefixed(s)]), extended: true })),
    // The scope qualified with one instance of its resource (action:resource:id, as fine-grained
    // scopes are written elsewhere): another string, though a check that reads a scope's first two
    // segments takes it for the whole resource's.
    {
      ...replaced('instance-qualified', `qualified with one instance (${scope}:x_other)`, 'extra-part', (s) => [`${s}:x_other`]),
      extended: true,
    },
    {
      ...replaced('instance-wildcard', `qualified with every instance (${scope}:*)`, 'extra-part', (s) => [`${s}:*`]),
      extended: true,
    },
    replaced('wildcard-resource', `replaced by ${action}:* (its action on any resource)`, 'near-value', () => [`${action}:*`]),
    replaced('wildcard-action', `replaced by *:${resource} (any action on its resource)`, 'near-value', () => [`*:${resource}`]),
    { ...replaced('wildcard', 'replaced by *', 'near-value', () => ['*']), extended: true },
    // Its action, or its resource, alone: a coarse scope of another scheme (django-oauth-toolkit's
    // "read" and "write", a resource-named scope), which a check that also honours such scopes
    // takes for it.
    { ...replaced('action-alone', `replaced by ${action} (its action alone)`, 'truncate', () => [action]), extended: true },
    { ...replaced('resource-alone', `replaced by ${resource} (its resource alone)`, 'truncate', () => [resource]), extended: true },
    replaced('duplicate', 'twice', 'duplicate', (s) => [s, s], true),
    replaced('alone', 'alone, the other scopes left out', 'empty', (s) => [s], true),
    // The scope only in another claim (scp, a list, as other providers issue it): the token's
    // scopes are its scope claim's, so a check that reads scp too grants what was not granted.
    resigned({
      operator: 'placement',
      key: 'in-scp',
      says: 'left out, and listed in an scp claim instead',
      apply: resignClaims((c) => ({ ...withScopeReplaced(c, scope, []), scp: [scope] })),
      expect: { checks: forbidden(card), source: `${source}; the token's scopes are its scope claim (observed.yaml tokens)` },
    }),
    // Left out, and named (or seemingly granted) by a claim other issuers carry authority in: an
    // RBAC permissions list, a scopes list, Azure's scp string, roles, a namespaced custom claim,
    // an organization. The token's scopes are its scope claim's, so each is refused as the token
    // without the scope is; a check that merges such a claim in, or waves through a token that
    // seems to speak for an organization, grants what was not granted.
    ...authorityClaims(scope).map(([key, says, claims, extended]) => ({
      ...resigned({
        operator: 'placement',
        key,
        says: `left out, and ${says}`,
        apply: resignClaims((c) => ({ ...withScopeReplaced(c, scope, []), ...claims(c) })),
        expect: { checks: forbidden(card), source: `${source}; the token's scopes are its scope claim (observed.yaml tokens)` },
      }),
      ...(extended ? { extended: true } : {}),
    })),
    // Left out, the token holding every other scope of the catalogue: none of them is the
    // operation's, though a check that lets some other scope stand for it (an administrator's, a
    // batch handler's) finds one. Where the scope is only observed, the reference does not say
    // that no other scope permits the operation.
    resigned({
      operator: 'absent',
      key: 'every-other-scope',
      says: 'left out, the token holding every other scope of the catalogue',
      apply: resignClaims((c) => ({ ...c, scope: scopeCatalogue.filter((s) => s !== scope).join(' ') })),
      expect:
        card.scope.level === 'contract'
          ? { checks: forbidden(card), source: `${source}, and no other scope of the catalogue stands for it` }
          : { none: 'the reference names no scope permitting the operation but its own, nor says that none of the others does' },
    }),
    configured('other_action', `replaced by another action on its resource (a client holding ${otherActionOf(scope)})`),
    configured('other_resource', `replaced by its action on another resource (a client holding ${card.scope.otherResource})`),
    {
      operator: 'other-owner',
      key: 'role-without-scope',
      says: "missing (a client holding the other operations' scopes)",
      apply: withCredential({ kind: 'role', role: card.roleWithoutScope }),
      needs: [{ role: card.roleWithoutScope }],
      expect: { checks: forbidden(card), source },
    },
    // The same client, the request asking for some fields only (?fields=...&include_fields=true,
    // the interface's sparse-fieldset parameters elsewhere): refused as without them, though a view
    // whose lookup for a field list skips the permission check answers it.
    {
      operator: 'other-owner',
      key: 'role-without-scope-fields-asked',
      says: "missing (a client holding the other operations' scopes), the request asking ?fields=name&include_fields=true",
      apply: (template) => {
        const varied = withCredential({ kind: 'role', role: card.roleWithoutScope })(template);
        return { ...varied, query: [...varied.query, ['fields', 'name'], ['include_fields', 'true']] };
      },
      needs: [{ role: card.roleWithoutScope }],
      expect: { checks: forbidden(card), source },
      extended: true,
    },
    // Replaced by a scope named after the operation's path (a permission table derived from the
    // method and the path's segments names one of them).
    ...pathNamedScopes(card).map((named) =>
      replaced(
        `path-named-${named.slice(named.indexOf(':') + 1)}`,
        `replaced by ${named}, a scope named after its path`,
        'near-value',
        () => [named],
      ),
    ),
    ...respelledWithoutScope(card, source),
    ...withBodyWithoutScope(card),
    ...withOptionalHeadersWithoutScope(card),
  ];
  // Alone: the scope claim holds the operation's scope and nothing else, so a check that asks for
  // another scope besides it refuses the one token it must accept.
  return variants.map((made) =>
    made.key === 'alone'
      ? {
          ...made,
          apply: resignClaims((c) => ({ ...c, scope })),
          expect: { checks: allowedByScope(card), source: `${source}, and it alone suffices` },
        }
      : made,
  );
}

/** The variations of a credential element, each with its expectation. */
/**
 * Where a credential element's text is, for the shared text equivalents (equivalents.ts): the edit
 * that writes it changed. Undefined for an element no exact comparison holds.
 */
function textEdit(card: OperationCard, element: Element): ((change: (text: string) => string) => TokenEdit) | undefined {
  const member = element.member!;
  if (element.kind === 'jose-header') return (change) => ({ resign: { header: (h) => claimSet(h, member, change(String(h[member]))) } });
  if (element.kind === 'claim') {
    const current = (c: JsonRecord) => String(Array.isArray(c[member]) ? (c[member] as unknown[])[0] : c[member]);
    return (change) => ({ resign: { claims: (c) => claimSet(c, member, change(current(c))) } });
  }
  if (element.kind === 'scope-token') {
    const scope = card.scope.value;
    return (change) => ({ resign: { claims: (c) => withScopeReplaced(c, scope, [change(scope)]) } });
  }
  return undefined;
}

/**
 * The family's variants and every text equivalent of the shared list (equivalents.ts) it has no
 * row of yet: another string, refused by the rule that refuses the element in the other case (its
 * "case" row), though a verifier behind the layer that folds it reads the valid one. Test doubles only.
 */
function withTextEquivalents(card: OperationCard, element: Element, variants: Made[]): Made[] {
  const edit = textEdit(card, element);
  const reference = variants.find((variant) => variant.key === 'case');
  if (!edit || !reference) return variants;
  const added = equivalentsFor(
    variants.map((variant) => variant.key),
    element.id,
    card,
  ).map((equivalent) =>
    resigned({
      operator: equivalent.operator,
      key: equivalent.key,
      says: `with ${equivalent.says}`,
      apply: edited(edit(equivalent.always)),
      expect: reference.expect,
      extended: true,
    }),
  );
  return [...variants, ...added];
}

/** A sample of a token member's value, of the JSON type it has: a NumericDate's number, else a string. */
const memberSample = (member: string): unknown => (['exp', 'iat', 'nbf'].includes(member) ? 0 : 'x');

/**
 * The family's variants and every value wrapper of the shared list (wrappers.ts) it has no row of
 * yet, for a header member or a claim with a row of another type: the member's value wrapped (a
 * list of one, an object holding it, Avro's, MongoDB's or DynamoDB's JSON, Jackson's typed array,
 * an XML text node), another type, refused by the rule that refuses the element as another type,
 * though a verifier that unwraps it reads the valid one. Not for `aud` a list: a list holding the
 * audience is an audience (RFC 7519 4.1.3). Test doubles only.
 */
function withValueWrappers(element: Element, variants: Made[]): Made[] {
  const member = element.member!;
  const reference = variants.find((variant) => variant.operator === 'other-type' && 'checks' in variant.expect);
  if (!reference || !['jose-header', 'claim'].includes(element.kind)) return variants;
  // A time the valid token lacks (nbf) is wrapped at a valid value: a minute ago.
  const current = (json: JsonRecord): unknown =>
    (Array.isArray(json[member]) ? (json[member] as unknown[])[0] : json[member]) ?? Math.floor(Date.now() / 1000) - 60;
  const added = wrappersFor(
    variants.map((variant) => variant.key),
    memberSample(member),
  )
    .filter((entry) => !(member === 'aud' && Array.isArray(entry.wrap('x'))))
    .map((entry) => {
      const wrap = (json: JsonRecord) => claimSet(json, member, entry.wrap(current(json)));
      return resigned({
        operator: entry.operator,
        key: entry.key,
        says: entry.says(memberSample(member)).replace(/"x"|\b0\b/g, '...'),
        apply: edited({ resign: element.kind === 'jose-header' ? { header: wrap } : { claims: wrap } }),
        expect: reference.expect,
        extended: true,
      });
    });
  return [...variants, ...added];
}

/**
 * A text claim given twice in the payload, the valid value first and last the value its "case" row
 * sends (else its "empty" row's), with that row's expectation: RFC 7519 4 has a parser refuse a
 * claim set with a name twice or keep the last member, and either way the request is refused as
 * that row's is, though a decoder that keeps the first (a proplist, a streaming reader) reads the
 * valid one. The header's alg and kid have theirs (joseVariants). Test doubles only.
 */
function withMemberTwice(element: Element, variants: Made[]): Made[] {
  const member = element.member!;
  const reference = variants.find((variant) => variant.key === 'case') ?? variants.find((variant) => variant.key === 'empty');
  if (element.kind !== 'claim' || !reference || variants.some((variant) => variant.key === 'twice-other-last')) return variants;
  const other = (value: unknown): string => {
    if (reference.key === 'empty') return '';
    const text = String(Array.isArray(value) ? value[0] : value);
    return text.toUpperCase() === text ? text.toLowerCase() : text.toUpperCase();
  };
  return [
    ...variants,
    resigned({
      operator: 'duplicate',
      key: 'twice-other-last',
      says: `twice, the valid value first and ${reference.key === 'empty' ? 'empty' : 'in the other letter case'} last`,
      apply: edited({ resign: { claimsText: (c) => claimTwice(c, member, c[member], other(c[member])) } }),
      expect: reference.expect,
      extended: true,
    }),
  ];
}

/**
 * A claim refused under its own name (its "past", "future" or "case" row's value) beside its valid
 * value under its name in capitals, written last: member names are case-sensitive (RFC 7519 4,
 * RFC 8259 4), so the token is refused as that row's is, though a decoder that matches names
 * without case, the last match winning (Go's encoding/json), reads the valid one. Test doubles only.
 */
function withNameInCapitals(element: Element, variants: Made[]): Made[] {
  const member = element.member!;
  const upper = member.toUpperCase();
  const reference = variants.find((variant) => ['past', 'future', 'case'].includes(variant.key) && 'checks' in variant.expect);
  if (element.kind !== 'claim' || !reference || upper === member) return variants;
  const refused = (value: unknown, now: number): unknown => {
    if (reference.key === 'past') return now - NEAR_MISS_SECONDS;
    if (reference.key === 'future') return now + HOUR;
    const text = String(Array.isArray(value) ? value[0] : value);
    return text.toUpperCase() === text ? text.toLowerCase() : text.toUpperCase();
  };
  const valid = (c: JsonRecord, now: number): unknown => c[member] ?? now - 60;
  return [
    ...variants,
    resigned({
      operator: 'case',
      key: 'name-capitals-beside',
      says: `refused as its ${reference.key} row's, beside its valid value under its name in capitals (${upper}), written last`,
      apply: resignClaims((c, now) => {
        const rest = Object.fromEntries(Object.entries(c).filter(([name]) => name !== member));
        return { ...rest, [member]: refused(c[member], now), [upper]: valid(c, now) };
      }),
      expect: reference.expect,
      extended: true,
    }),
  ];
}

export function credentialVariants(card: OperationCard, element: Element): Made[] {
  switch (element.kind) {
    case 'authorization':
      return authorizationVariants(card);
    case 'auth-scheme':
      return schemeVariants(card);
    case 'token':
      return tokenTextVariants(card);
    case 'jose-header':
      return withValueWrappers(element, withTextEquivalents(card, element, joseVariants(card, element.member!)));
    case 'signature':
      return signatureVariants(card);
    case 'claim':
      return withNameInCapitals(
        element,
        withMemberTwice(element, withValueWrappers(element, withTextEquivalents(card, element, claimVariants(card, element.member!)))),
      );
    case 'scope-token':
      return withTextEquivalents(card, element, scopeTokenVariants(card));
    default:
      return [];
  }
}

export type { Made as MadeVariant };
