// Spec section 5 rule 3: client credentials at {auth_url}/oauth/token/, audience /api/v2/; the
// tokens carry scopes from the catalogue. Observed: the response shape, the claims, the lifetime,
// the JWKS and the JSON form of the request (the endpoint's own error shape is read on the matrix's
// refused token requests, suites/matrix/token-requests.test.ts).
import { createHash, createPublicKey, X509Certificate, type JsonWebKey } from 'node:crypto';
import { createLocalJWKSet, decodeJwt, decodeProtectedHeader, jwtVerify, type JWK } from 'jose';
import {
  conformance,
  expectEqual,
  expectIncludes,
  expectJsonMediaType,
  expectNoProblems,
  expectNotEqual,
  expectPresent,
  expectSchema,
  expectStatus,
  role as needsRole,
  sharedKeys,
  shown,
  type TargetSession,
} from '../../harness/index.ts';
import { expectNoStore } from '../../harness/suite/matrix.ts';
import { roleNames } from '../../specs/cards/index.ts';
import { checkScopeString, observed, operation, validator } from '../../specs/index.ts';

const JWS_COMPACT = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;

function scopesOf(token: string): string[] {
  const claim = decodeJwt(token).scope;
  if (typeof claim === 'string') return claim.split(' ').filter(Boolean);
  return Array.isArray(claim) ? claim.map(String) : [];
}

/** Tests that read the global role's token: no request of their own. */
const readsToken = { operation: 'token' as const, requests: 0 };
/** Tests that read the exchange that issued it: minted by this run (a cached token has none). */
const readsIssue = { operation: 'token' as const, requests: 0, shared: [sharedKeys.tokenExchange('global')] };
const readsJwks = { operation: 'token' as const, requests: 0, shared: [sharedKeys.jwks] };
const ownRequest = { operation: 'token' as const, requests: 1 };

conformance(
  '[§5 token.endpoint] the token endpoint issues a JWT for form-encoded client credentials and the /api/v2/ audience',
  readsIssue,
  async ({ target }) => {
    const { exchange, token } = await target.issued('global');
    expectStatus(exchange, 200);
    const header = token && JWS_COMPACT.test(token) ? safe(() => decodeProtectedHeader(token)) : undefined;
    expectPresent(header?.alg, 'alg of the access_token, a compact JWS', { exchange });
  },
);

// RFC 6749 5.1: an answer that holds a token must not be stored by a cache on the way.
conformance(
  '[§5 token.observed.response] the token endpoint answers a token with Cache-Control: no-store',
  readsIssue,
  async ({ target }) => {
    const { exchange } = await target.issued('global');
    expectStatus(exchange, 200);
    expectNoStore(exchange);
  },
);

conformance('[§5 token.scopes] an access token carries its scopes', readsToken, async ({ target }) => {
  const scopes = scopesOf(await target.tokenFor('global'));
  const needed = operation('redeliver').contractScopes;
  expectIncludes(scopes, needed, "scope claim (the global role's grant)");
});

conformance(
  '[§5 scopes.catalogue] every scope an access token carries is action:resource from the catalogue',
  readsToken,
  async ({ target }) => {
    const check = checkScopeString(scopesOf(await target.tokenFor('global')).join(' '));
    expectNotEqual(check.scopes, [], 'scopes of the token');
    expectEqual(
      { malformed: check.malformed, unknown: check.unknown },
      { malformed: [], unknown: [] },
      'scopes not action:resource from the section 5 catalogue',
    );
  },
);

conformance(
  '[§5 token.observed.response] the token response has access_token, token_type Bearer, expires_in and scope',
  readsIssue,
  async ({ target }) => {
    const { exchange } = await target.issued('global');
    expectSchema(exchange, validator('TokenResponse', 'observed'), '{access_token, token_type: "Bearer", expires_in, scope}');
  },
);

// RFC 6749 5.1: the parameters are in the entity-body "using the application/json media type"; a
// client that picks its parser by the Content-Type reads a text/plain answer as no token.
conformance('[§5 token.observed.response] the token response is typed application/json', readsIssue, async ({ target }) => {
  const { exchange } = await target.issued('global');
  expectJsonMediaType(exchange);
});

// The answer's scope is the token's, written the same way: one space-separated string (RFC 6749 5.1,
// observed), the scopes the token carries.
conformance(
  "[§5 token.observed.response] the token response's scope is the token's scope claim, space-separated",
  readsIssue,
  async ({ target }) => {
    const { exchange, token } = await target.issued('global');
    const answered = (exchange.json as { scope?: unknown } | undefined)?.scope;
    const claim = token ? safe(() => decodeJwt(token).scope) : undefined;
    target.needs(typeof claim === 'string', 'the issued token has no scope claim to compare with (see token.scopes)');
    // The same scopes, in any order: each string split on its spaces.
    const scopes = (value: unknown) => (typeof value === 'string' ? value.split(' ').sort() : value);
    expectEqual(scopes(answered), scopes(claim), "the response's scope split on spaces, as the token's scope claim", { exchange });
  },
);

conformance('[§5 token.lifetime] an access token lives 86400 seconds', readsIssue, async ({ target }) => {
  const { exchange, token } = await target.issued('global');
  const claims = token ? safe(() => decodeJwt(token)) : undefined;
  const expiresIn = (exchange.json as { expires_in?: unknown } | undefined)?.expires_in;
  const lifetime = claims?.exp !== undefined && claims.iat !== undefined ? claims.exp - claims.iat : undefined;
  expectEqual(
    { expires_in: expiresIn, 'exp - iat': lifetime },
    { expires_in: observed.tokens.expires_in, 'exp - iat': observed.tokens.expires_in },
    'lifetime',
    { exchange },
  );
});

/** What is wrong with a token's header and claims, for the client it was issued to. */
function claimProblems(token: string, clientId: string, audience: string): string[] {
  const header = decodeProtectedHeader(token);
  const claims = decodeJwt(token);
  return [
    header.alg !== observed.tokens.alg && `alg ${String(header.alg)}`,
    header.typ !== observed.tokens.typ && `typ ${String(header.typ)}`,
    typeof header.kid !== 'string' && 'no kid',
    !(typeof claims.iss === 'string' && /^https:\/\/[^/]+\/$/.test(claims.iss)) && `iss ${JSON.stringify(claims.iss)}`,
    // The audience as the one string the tenant issues, not a list holding it (which RFC 7519 4.1.3 allows).
    claims.aud !== audience && `aud ${JSON.stringify(claims.aud)}`,
    claims.sub !== `${clientId}${observed.tokens.subject_suffix}` && `sub ${JSON.stringify(claims.sub)}`,
    claims.azp !== clientId && `azp ${JSON.stringify(claims.azp)}`,
    claims.gty !== observed.tokens.gty && `gty ${JSON.stringify(claims.gty)}`,
    (typeof claims.iat !== 'number' || typeof claims.exp !== 'number') && 'iat or exp not numbers',
    typeof claims.scope !== 'string' && 'scope not a string',
  ].filter((problem): problem is string => problem !== false);
}

const documentedClaims = (audience: string) =>
  `alg ${observed.tokens.alg}, typ ${observed.tokens.typ}, kid; iss https://<host>/, aud ${audience}, sub <client>${observed.tokens.subject_suffix}, azp, iat, exp, scope, gty ${observed.tokens.gty}`;

conformance('[§5 token.observed.claims] an access token is an RS256 JWS with the documented claims', readsToken, async ({ target }) => {
  const token = await target.tokenFor('global');
  expectNoProblems(
    claimProblems(token, target.target.roles.global!.clientId, target.target.audience),
    documentedClaims(target.target.audience),
  );
});

// Every client's token is of the one kind, whatever the client: a table of lifetimes or claims kept
// per kind of client (global or not, one grant or another) issues the others another kind. The
// tokens are the ones the run already holds for each role: no request of their own.
for (const role of roleNames.filter((name) => name !== 'global')) {
  const readsRoleToken = { operation: 'token' as const, requests: 0, needs: [needsRole(role)] };
  conformance(
    `[§5 token.lifetime] a token of role ${role} lives 86400 seconds (exp - iat), as the global role's`,
    readsRoleToken,
    async ({ target }) => {
      const token = await target.tokenFor(role);
      const claims = safe(() => decodeJwt(token));
      const lifetime = typeof claims?.exp === 'number' && typeof claims.iat === 'number' ? claims.exp - claims.iat : undefined;
      expectEqual(lifetime, observed.tokens.expires_in, `exp - iat of the token of role ${role}`);
    },
  );
  conformance(
    `[§5 token.observed.claims] a token of role ${role} is an RS256 JWS with the documented claims, naming its own client`,
    readsRoleToken,
    async ({ target }) => {
      const token = await target.tokenFor(role);
      expectNoProblems(
        claimProblems(token, target.target.roles[role]!.clientId, target.target.audience),
        documentedClaims(target.target.audience),
      );
    },
  );
}

conformance('[§5 token.observed.jwks] the published JWKS verifies an issued token', readsJwks, async ({ target }) => {
  const token = await target.tokenFor('global');
  const jwks = await target.jwks();
  expectEqual(jwks.problem, undefined, `what is wrong with the answer of ${target.forge.jwksUrl}, a JWKS ({"keys": [...]}, RFC 7517 5)`, {
    exchange: jwks.exchange,
  });
  const verified = await jwtVerify(token, createLocalJWKSet(jwks), { audience: target.target.audience }).then(
    () => 'verified',
    (error: Error) => error.message,
  );
  expectEqual(verified, 'verified', `a token checked with the keys of ${target.forge.jwksUrl}`);
});

// OpenID Connect Discovery 1.0: a client that knows only the tenant's host reads this document to
// find the token endpoint and the keys. Its issuer is the URL the document was read under, less the
// well-known suffix (section 4.3: identical), and the endpoints it names are the tenant's own, on
// that host (a recorded document, observed.discovery).
async function checkDiscovery(target: TargetSession, headers: Record<string, string>, sent: string): Promise<void> {
  const base = target.target.authUrl.replace(/\/+$/, '');
  const url = `${base}${observed.discovery.path}`;
  const exchange = await target.send({ method: 'GET', url, headers: { accept: 'application/json', ...headers }, label: 'discovery' });
  expectStatus(exchange, 200);
  const document = exchange.json;
  const member = (name: string) =>
    typeof document === 'object' && document !== null ? (document as Record<string, unknown>)[name] : undefined;
  const wanted = {
    issuer: `${base}/`,
    token_endpoint: `${base}${observed.tokens.path}`,
    jwks_uri: `${base}${observed.tokens.jwks_path}`,
  };
  const problems = Object.entries(wanted)
    .filter(([name, value]) => member(name) !== value)
    .map(([name, value]) => `${name} is ${shown(member(name))}, not ${value}`);
  expectNoProblems(problems, `${sent}issuer ${wanted.issuer}, token_endpoint ${wanted.token_endpoint}, jwks_uri ${wanted.jwks_uri}`, {
    exchange,
  });
}

conformance(
  '[§5 token.observed.discovery] the discovery document names the URL it is published under as issuer, and the token endpoint and the JWKS on it',
  ownRequest,
  async ({ target }) => checkDiscovery(target, {}, ''),
);

// The document is the tenant's whoever asks: headers a client writes to say which host and scheme
// a proxy was reached at (X-Forwarded-Host and -Proto, RFC 7239 Forwarded) name no other issuer or
// endpoints, else any client could have the document point token requests at a host of its choice.
conformance(
  "[§5 token.observed.discovery] the discovery document read with X-Forwarded-Host, X-Forwarded-Proto and Forwarded naming another host and scheme still names the tenant's issuer, token endpoint and JWKS",
  ownRequest,
  async ({ target }) => {
    // Another host a URL can hold whatever the tenant's is (an IP address too): its name under the
    // reserved .invalid (RFC 6761 6.4), its port kept.
    const { hostname, port, protocol } = new URL(target.target.authUrl);
    const otherHost = `${hostname.replace(/[^A-Za-z0-9.-]/g, '-')}.invalid${port === '' ? '' : `:${port}`}`;
    const otherProto = protocol === 'https:' ? 'http' : 'https';
    const headers = {
      'x-forwarded-host': otherHost,
      'x-forwarded-proto': otherProto,
      forwarded: `host="${otherHost}";proto=${otherProto}`,
    };
    await checkDiscovery(target, headers, `whatever X-Forwarded-Host, X-Forwarded-Proto and Forwarded say (${otherHost}, ${otherProto}): `);
  },
);

// Each of the three alone: a proxy-aware helper reads one before the others and falls back on the
// next (Forwarded first, then X-Forwarded-Host), so a document that ignores the three sent together
// (a Forwarded whose quoted host it cannot parse, taken for none) may still follow one sent alone.
conformance(
  "[§5 token.observed.discovery] the discovery document read with X-Forwarded-Host alone, X-Forwarded-Proto alone, and Forwarded alone, each naming another host or scheme, still names the tenant's issuer, token endpoint and JWKS",
  { ...ownRequest, requests: 3 },
  async ({ target }) => {
    const { hostname, port, protocol } = new URL(target.target.authUrl);
    const otherHost = `${hostname.replace(/[^A-Za-z0-9.-]/g, '-')}.invalid${port === '' ? '' : `:${port}`}`;
    const otherProto = protocol === 'https:' ? 'http' : 'https';
    for (const [name, value] of [
      ['x-forwarded-host', otherHost],
      ['x-forwarded-proto', otherProto],
      ['forwarded', `host=${otherHost.includes(':') ? `"${otherHost}"` : otherHost};proto=${otherProto}`],
    ] as const)
      await checkDiscovery(target, { [name]: value }, `whatever ${name} alone says (${value}): `);
  },
);

/**
 * RFC 7517 4.8 and 4.9: x5t is the base64url SHA-1 digest of the DER of the first certificate of
 * x5c, x5t#S256 its SHA-256 digest. Each thumbprint a key publishes that is not its certificate's.
 */
function thumbprintProblems(key: Record<string, unknown>, index: number): string[] {
  const certificate: unknown = Array.isArray(key.x5c) ? (key.x5c as unknown[])[0] : undefined;
  if (typeof certificate !== 'string') return [];
  const der = Buffer.from(certificate, 'base64');
  return (
    [
      ['x5t', 'sha1'],
      ['x5t#S256', 'sha256'],
    ] as const
  ).flatMap(([member, digest]) => {
    if (!(member in key)) return [];
    const expected = createHash(digest).update(der).digest('base64url');
    return key[member] === expected
      ? []
      : [`key ${index}'s ${member} is ${JSON.stringify(key[member])}, not the ${digest.toUpperCase()} thumbprint of x5c[0] (${expected})`];
  });
}

conformance(
  '[§5 token.observed.jwks] each published key has the documented members and no other, its n and e in their shortest form, its x5t the SHA-1 thumbprint of its certificate',
  readsJwks,
  async ({ target }) => {
    const jwks = await target.jwks();
    const documented = observed.jwks.members.value;
    // RFC 7518 6.3.1: n and e are unsigned big-endian integers in the fewest octets, so with no
    // leading zero octet (a signed integer's export adds one when the top bit is set).
    const leadingZero = (member: unknown) => typeof member === 'string' && Buffer.from(member, 'base64url')[0] === 0;
    const problems = problemsOfEachKey(jwks, (key, index) => [
      ...Object.keys(key)
        .filter((member) => !documented.includes(member))
        .map((member) => `key ${index} has ${member}, which a published key does not`),
      ...documented.filter((member) => !(member in key)).map((member) => `key ${index} has no ${member}`),
      ...(['n', 'e'] as const)
        .filter((member) => leadingZero(key[member]))
        .map((member) => `key ${index}'s ${member} starts with a zero octet`),
      ...thumbprintProblems(key, index),
    ]);
    expectNoProblems(
      problems,
      `members ${documented.join(', ')}; n and e without leading zero octets (RFC 7518 6.3.1); x5t the base64url SHA-1 of x5c[0]'s DER, x5t#S256 its SHA-256 (RFC 7517 4.8, 4.9)`,
    );
  },
);

/**
 * The JWK members RFC 7517 and 7518 write in base64url (RFC 7515 2: the URL-safe alphabet, no "="
 * padding): an RSA key's n and e (7518 6.3.1) and private parts, an EC key's x, y and d (6.2), a
 * symmetric key's k (6.4), and the certificate thumbprints x5t and x5t#S256 (7517 4.8, 4.9).
 */
const BASE64URL_MEMBERS = ['n', 'e', 'd', 'p', 'q', 'dp', 'dq', 'qi', 'x', 'y', 'k', 'x5t', 'x5t#S256'];
const BASE64URL = /^[A-Za-z0-9_-]+$/;
/** RFC 7517 4.7: each certificate of x5c is base64 (RFC 4648 4, the standard alphabet with its padding), not base64url. */
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

// A JWK reader may take n in the other alphabet or with padding (Node's does), so the keys verify
// tokens all the same; a strict one refuses the key.
conformance(
  "[§5 token.observed.jwks] each published key's base64url members (n, e, x5t...) are base64url without padding, and its x5c certificates base64",
  readsJwks,
  async ({ target }) => {
    const jwks = await target.jwks();
    const problems = problemsOfEachKey(jwks, (key, index) => {
      const members = key as Record<string, unknown>;
      const chain = members.x5c;
      return [
        ...BASE64URL_MEMBERS.filter(
          (member) => member in members && !(typeof members[member] === 'string' && BASE64URL.test(members[member])),
        ).map((member) => `key ${index}'s ${member} is ${shown(members[member])}, not base64url without padding`),
        ...(Array.isArray(chain) ? chain : [])
          .map((certificate: unknown, at) => [certificate, at] as const)
          .filter(([certificate]) => !(typeof certificate === 'string' && certificate !== '' && BASE64.test(certificate)))
          .map(([certificate, at]) => `key ${index}'s x5c[${at}] is ${shown(certificate)}, not base64`),
      ];
    });
    expectNoProblems(
      problems,
      `${BASE64URL_MEMBERS.join(', ')} where present: base64url, no padding (RFC 7515 2, RFC 7518 6); x5c: base64 (RFC 7517 4.7)`,
      { exchange: jwks.exchange },
    );
  },
);

// RFC 7517 4.7: x5c's first certificate holds the key the JWK describes. The tenant's is one
// self-signed CA certificate over its signing key (observed.jwks.certificate, recorded).
conformance("[§5 token.observed.jwks] each published key's x5c is one CA certificate over that key", readsJwks, async ({ target }) => {
  const jwks = await target.jwks();
  const problems = problemsOfEachKey(jwks, (key, index) => {
    const chain = (key as Record<string, unknown>).x5c;
    if (!Array.isArray(chain) || chain.length !== 1) return [`key ${index}'s x5c is ${shown(chain)}, not a list of one certificate`];
    const certificate = safe(() => new X509Certificate(Buffer.from(String(chain[0]), 'base64')));
    if (!certificate) return [`key ${index}'s x5c[0] is not a DER certificate in base64`];
    const own = safe(() => createPublicKey({ key: key as JsonWebKey, format: 'jwk' }));
    return [
      ...(own && certificate.publicKey.equals(own) ? [] : [`key ${index}'s certificate is over another key than its n and e`]),
      ...(certificate.ca ? [] : [`key ${index}'s certificate is not a CA certificate (basicConstraints CA:TRUE)`]),
    ];
  });
  expectNoProblems(problems, "x5c: one self-signed CA certificate over the key's n and e (RFC 7517 4.7)", { exchange: jwks.exchange });
});

conformance(
  '[§5 token.observed.json-request] the token endpoint accepts a JSON request without the trailing slash',
  ownRequest,
  async ({ target }) => {
    const { exchange, token } = await target.tokenRequest('global', { json: true, url: `${target.target.authUrl}${observed.tokens.path}` });
    expectStatus(exchange, 200);
    expectPresent(token, 'access_token', { exchange });
  },
);

/**
 * The problems of each published key; a JWKS that could not be read, or that publishes no key, is
 * one problem itself (a check over its keys must not pass over none).
 */
function problemsOfEachKey(jwks: { keys: JWK[]; problem?: string }, problemsOf: (key: JWK, index: number) => string[]): string[] {
  if (jwks.problem !== undefined) return [jwks.problem];
  if (jwks.keys.length === 0) return ['the JWKS publishes no key'];
  return jwks.keys.flatMap(problemsOf);
}

function safe<T>(read: () => T): T | undefined {
  try {
    return read();
  } catch {
    return undefined;
  }
}
