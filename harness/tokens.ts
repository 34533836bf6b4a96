// Access tokens of the configured roles, by the OAuth 2.0 client-credentials flow of spec
// section 5 (rule 3): a form-encoded POST to {auth_url}/oauth/token/ for the /api/v2/ audience.
//
// Tokens are the tenant's to spend (a monthly allotment, per-client hourly and daily quotas), so
// each role's token is got once per run (a shared request) and, with the token cache, reused from
// an earlier run while it lives past this run's bound (token-cache.ts). Only the tests of the
// token endpoint itself mint on purpose: the exchange they read (`issued`) is this run's own mint.
// Every answer of the token endpoint is witnessed (the runtime hands each one over, whoever sent it:
// the tests of the token endpoint send their own requests): a token issued is counted, the quota
// header kept. A request meant to mint (a known client's id and secret) is refused before it is
// sent when --max-tokens is spent, or while the client's quota header says its quota is.
import { decodeJwt, decodeProtectedHeader } from 'jose';
import { observed, tokenPath } from '../specs/index.ts';
import { HarnessError } from './errors.ts';
import { shownValue } from './failure.ts';
import type { Exchange, OutgoingRequest, TargetHttp } from './http.ts';
import { sharedKeys } from './plan.ts';
import { redactor } from './redact.ts';
import type { ForeignClient, ResolvedTarget, RoleName, TokenPolicy } from './settings.ts';
import type { SharedRequests } from './shared.ts';
import { TokenCache, type TokenCacheKey } from './token-cache.ts';
import { describeQuota, QUOTA_HEADER, quotaSpentUntil, supersedes } from './token-quota.ts';

export interface TokenResult {
  exchange: Exchange;
  token?: string;
}

/** What the run spent of the tenant's tokens. */
export interface TokenUse {
  minted: number;
  reused: number;
  /** The last quota header each client (by role or alternative name) was sent, with when. */
  quotas: Record<string, { header: string; at: number }>;
}

/** A cached token is reused only if it outlives the run's bound by this much. */
export const TOKEN_REUSE_MARGIN_MS = 60_000;

type ForeignName = 'other_audience' | 'other_tenant';

export interface TokenProviderOptions {
  policy?: TokenPolicy;
  /** A reused token must still be valid then (ms since the epoch): the run's bound and a margin. */
  validUntil: number;
}

export class TokenProvider {
  readonly #http: TargetHttp;
  readonly #target: ResolvedTarget;
  readonly #shared: SharedRequests;
  readonly #cache: TokenCache | undefined;
  readonly #policy: TokenPolicy | undefined;
  readonly #validUntil: number;
  /** This run's mints of each role's token by the standard request, which `issued` reads. */
  readonly #mints = new Map<RoleName, Promise<TokenResult>>();
  /** Clients whose quota header said a bucket is spent, and until when. */
  readonly #spentUntil = new Map<string, { until: number; header: string }>();
  readonly use: TokenUse = { minted: 0, reused: 0, quotas: {} };
  /** The target's clients (roles and alternatives): their names for the report, their secrets to tell a request meant to mint. */
  readonly #clients = new Map<string, { name: string; secret: string }>();

  constructor(http: TargetHttp, target: ResolvedTarget, shared: SharedRequests, options: TokenProviderOptions) {
    this.#http = http;
    this.#target = target;
    this.#shared = shared;
    this.#policy = options.policy;
    this.#cache = options.policy?.cacheDir !== undefined ? new TokenCache(options.policy.cacheDir) : undefined;
    this.#validUntil = options.validUntil;
    const { otherAudience, otherTenant } = target.tokenAlternatives;
    for (const [name, client] of [
      ['other_tenant', otherTenant],
      ['other_audience', otherAudience],
      ...Object.entries(target.roles),
    ] as const) {
      if (client) this.#clients.set(client.clientId, { name, secret: client.clientSecret });
    }
  }

  /**
   * An answer of the token endpoint, whoever sent it: a token it issued is counted, its quota
   * header kept (a spent quota stops further requests of that client until it resets).
   */
  witness(exchange: Exchange): void {
    if (exchange.request.label !== 'token') return;
    if (exchange.status === 200 && accessTokenOf(exchange.json) !== undefined) this.use.minted += 1;
    const header = exchange.headers[QUOTA_HEADER];
    if (header === undefined) return;
    const clientId = tokenFieldsOf(exchange.request).get('client_id') ?? '';
    const name = this.#clients.get(clientId)?.name ?? 'another client';
    const kept = this.use.quotas[name];
    if (kept === undefined || supersedes({ header, at: exchange.at }, kept)) this.use.quotas[name] = { header, at: exchange.at };
    const until = quotaSpentUntil(header, exchange.at);
    if (until !== undefined) this.#spentUntil.set(clientId, { until, header });
  }

  /** Refuses, before it is sent, a token request meant to mint when --max-tokens or the client's quota is spent. */
  refuseUnaffordable(request: OutgoingRequest): void {
    if (request.label !== 'token') return;
    const fields = tokenFieldsOf(request);
    const client = this.#clients.get(fields.get('client_id') ?? '');
    if (client && fields.get('client_secret') === client.secret) this.#affordable(client.name, fields.get('client_id')!);
    else if (request.mints) this.#affordable(client?.name ?? 'the key client', fields.get('client_id') ?? '');
  }

  /** The token endpoint URL the spec names. */
  get tokenUrl(): string {
    return `${this.#target.authUrl}${tokenPath}`;
  }

  /** What went wrong with the token cache this run, if anything. */
  get cacheProblems(): readonly string[] {
    return this.#cache?.problems ?? [];
  }

  /** A token of a role: got once per run (a shared request), from the cache when it holds one. */
  tokenFor(role: RoleName, payer?: string): Promise<string> {
    return this.#shared.once(sharedKeys.token(role), `a client-credentials token of role ${role}`, payer, async () => {
      const key = roleCacheKey(this.#target, role);
      const cached = key && this.#fromCache(key);
      if (cached && (role === 'global' || (await this.#signedAsGlobal(cached, payer)))) return cached;
      if (cached) this.#forget(key);
      const { exchange, token } = await this.#mint(role);
      if (token === undefined) throw refusedRole(role, exchange);
      return sendable(token);
    });
  }

  /** The exchange that issued a role's token in this run (minted now unless this run already did), and the token. */
  issued(role: RoleName, payer?: string): Promise<TokenResult> {
    return this.#shared.once(sharedKeys.tokenExchange(role), `the exchange that issued a token of role ${role}`, payer, () =>
      this.#mint(role),
    );
  }

  /**
   * Forgets a role's cached token, which the target refused (a new signing key, a changed grant),
   * and mints one instead (not a shared request: the runner's preflight uses it). Where the global
   * role's was refused, every token the cache holds from this tenant goes too (each role's, the other
   * API's and the key client's; not the other tenant's): they were issued under the same key, and a
   * key replaced under the same kid, or a token that names none, leaves the kid check nothing to see.
   */
  async replaceCached(role: RoleName): Promise<string> {
    const key = roleCacheKey(this.#target, role);
    if (key) this.#forget(key);
    if (role === 'global') for (const other of this.#tenantCacheKeys()) this.#cache?.drop(other);
    const { exchange, token } = await this.#mint(role);
    if (token === undefined) throw refusedRole(role, exchange);
    return sendable(token);
  }

  /** A token of a real-tenant alternative client (another API of this tenant, or a second tenant), once per run. */
  foreignToken(name: ForeignName, client: ForeignClient, payer?: string): Promise<string> {
    return this.#shared.once(sharedKeys.token(name), `a client-credentials token of ${name}`, payer, async () => {
      const key = foreignCacheKey(client);
      const cached = this.#fromCache(key);
      // Another API of this tenant signs with its key; another tenant, with a key of its own.
      if (cached && (name === 'other_tenant' || (await this.#signedAsGlobal(cached, payer)))) return cached;
      if (cached) this.#forget(key);
      const fields = {
        grant_type: 'client_credentials',
        client_id: client.clientId,
        client_secret: client.clientSecret,
        audience: client.audience,
      };
      const exchange = await this.#send(name, client.clientId, true, {
        method: 'POST',
        url: client.tokenUrl,
        label: 'token',
        headers: FORM_HEADERS,
        body: new URLSearchParams(fields).toString(),
      });
      const token = this.#issuedBy(exchange, key);
      if (!token) {
        throw new HarnessError(
          quotaSpentBy(exchange) ? 'TOKEN_QUOTA' : 'TOKEN_UNAVAILABLE',
          `the token endpoint at ${client.tokenUrl} refused token_alternatives.${name} (status ${exchange.status}${quotaNote(exchange)}); check that client in the target file`,
        );
      }
      return sendable(token);
    });
  }

  /**
   * A token of the key client (token_alternatives.key_client), asked for with a client assertion
   * signed with its key (RFC 7523), once per run, from the cache when it holds one: the positive
   * control of the rows made with that key (the tenant knows it). It counts against --max-tokens
   * and the client's quota as any token meant to mint.
   */
  keyClientToken(shared: string, assertion: () => Promise<string>, payer?: string): Promise<{ exchange?: Exchange; token?: string }> {
    return this.#shared.once(shared, shared, payer, async () => {
      const keyClient = this.#target.tokenAlternatives.keyClient;
      if (!keyClient) throw new Error('suite bug: the key client token was asked of a target without token_alternatives.key_client');
      const key = keyClientCacheKey(this.#target, keyClient);
      const cached = this.#fromCache(key);
      if (cached) return { token: cached };
      const exchange = await this.#send(
        'the key client',
        keyClient.clientId,
        true,
        keyClientTokenRequest(this.tokenUrl, this.#target, { client_assertion: await assertion() }),
      );
      const token = this.#issuedBy(exchange, key);
      return token ? { exchange, token } : { exchange };
    });
  }

  /**
   * One client-credentials request, as the spec describes it, with overrides for tests of the
   * token endpoint itself. The exchange is returned whatever its status. A request meant to mint
   * (the right secret and audience) counts against --max-tokens and waits for a spent quota.
   */
  async request(
    role: RoleName,
    overrides: { audience?: string; clientSecret?: string; url?: string; json?: boolean } = {},
  ): Promise<TokenResult> {
    const credentials = this.#target.roles[role];
    if (!credentials) throw new HarnessError('TOKEN_UNAVAILABLE', `role ${role} is not configured`);
    const fields = {
      grant_type: 'client_credentials',
      client_id: credentials.clientId,
      client_secret: overrides.clientSecret ?? credentials.clientSecret,
      audience: overrides.audience ?? this.#target.audience,
    };
    const body = overrides.json ? JSON.stringify(fields) : new URLSearchParams(fields).toString();
    const meantToMint = overrides.clientSecret === undefined && overrides.audience === undefined;
    const exchange = await this.#send(role, credentials.clientId, meantToMint, {
      method: 'POST',
      url: overrides.url ?? this.tokenUrl,
      label: 'token',
      headers: overrides.json ? JSON_HEADERS : FORM_HEADERS,
      body,
    });
    const standard = meantToMint && overrides.url === undefined && !overrides.json;
    const key = standard ? roleCacheKey(this.#target, role) : undefined;
    const token = this.#issuedBy(exchange, key);
    return token ? { exchange, token } : { exchange };
  }

  /** This run's mint of a role's token by the standard request: once, shared by `tokenFor` and `issued`. */
  #mint(role: RoleName): Promise<TokenResult> {
    let mint = this.#mints.get(role);
    if (!mint) {
      mint = this.request(role);
      this.#mints.set(role, mint);
      // A mint that failed (the budget, a spent quota) may be tried again by the next reader.
      mint.catch(() => this.#mints.delete(role));
    }
    return mint;
  }

  #fromCache(key: TokenCacheKey): string | undefined {
    const cached = this.#cache?.get(key, this.#validUntil);
    if (!cached) return undefined;
    redactor.add(cached.token);
    try {
      const token = sendable(cached.token);
      this.use.reused += 1;
      return token;
    } catch {
      return undefined;
    }
  }

  /**
   * Whether a cached token is signed under the key the global role's token is (the preflight has
   * that one accepted, minting it again where the target refused it). A token of another kid was
   * issued under an earlier key: the tenant's rotated key, or another server that had this address.
   * The target refuses it, which would fail the tests that send it under clauses they never touched.
   */
  async #signedAsGlobal(token: string, payer?: string): Promise<boolean> {
    return kidOf(token) === kidOf(await this.tokenFor('global', payer));
  }

  /** The cache keys of every token this tenant issues the run but the global role's. */
  #tenantCacheKeys(): TokenCacheKey[] {
    const roles = (Object.keys(this.#target.roles) as RoleName[]).filter((role) => role !== 'global');
    const keys = roles.map((role) => roleCacheKey(this.#target, role)).filter((key) => key !== undefined);
    const { otherAudience, keyClient } = this.#target.tokenAlternatives;
    if (otherAudience) keys.push(foreignCacheKey(otherAudience));
    if (keyClient) keys.push(keyClientCacheKey(this.#target, keyClient));
    return keys;
  }

  /** Drops a cached token this run will not use, and uncounts its reuse. */
  #forget(key: TokenCacheKey): void {
    this.#cache?.drop(key);
    this.use.reused -= 1;
  }

  #affordable(who: string, clientId: string): void {
    const max = this.#policy?.maxTokens;
    const minted = (this.#policy?.mintedBefore ?? 0) + this.use.minted;
    if (max !== undefined && minted >= max) {
      throw new HarnessError(
        'TOKEN_BUDGET',
        `--max-tokens ${max} is spent (${minted} minted this run); no more tokens are minted (a token for ${who} was needed)`,
      );
    }
    const spent = this.#spentUntil.get(clientId);
    if (spent && spent.until > Date.now()) {
      throw new HarnessError(
        'TOKEN_QUOTA',
        `the token quota of ${who}'s client is spent (${describeQuota(spent.header)}); no token is asked for before it resets`,
      );
    }
  }

  /** Sends a token request; one meant to mint is refused first when --max-tokens or the client's quota is spent. */
  async #send(who: string, clientId: string, meantToMint: boolean, request: OutgoingRequest): Promise<Exchange> {
    if (meantToMint) this.#affordable(who, clientId);
    return this.#http.send(request);
  }

  /** The token an exchange issued, if any: redacted from now on, and kept in the cache under `key` (`witness` counts it). */
  #issuedBy(exchange: Exchange, key: TokenCacheKey | undefined): string | undefined {
    const token = exchange.status === 200 ? accessTokenOf(exchange.json) : undefined;
    if (token === undefined) return undefined;
    redactor.add(token);
    const expiresAt = expiryOf(exchange, token);
    if (key && expiresAt !== undefined) this.#cache?.put(key, token, expiresAt);
    return token;
  }
}

/** The cache key of a role's token, when the role is configured. */
export function roleCacheKey(target: ResolvedTarget, role: RoleName): TokenCacheKey | undefined {
  const credentials = target.roles[role];
  if (!credentials) return undefined;
  return {
    tokenUrl: `${target.authUrl}${tokenPath}`,
    clientId: credentials.clientId,
    audience: target.audience,
    clientSecret: credentials.clientSecret,
  };
}

export function foreignCacheKey(client: ForeignClient): TokenCacheKey {
  return { tokenUrl: client.tokenUrl, clientId: client.clientId, audience: client.audience, clientSecret: client.clientSecret };
}

/** The key client's token is cached under its private key, the secret it holds. */
function keyClientCacheKey(target: ResolvedTarget, keyClient: { clientId: string; privateKeyJwk: string }): TokenCacheKey {
  return {
    tokenUrl: `${target.authUrl}${tokenPath}`,
    clientId: keyClient.clientId,
    audience: target.audience,
    clientSecret: keyClient.privateKeyJwk,
  };
}

/**
 * The shared token requests of a target that the cache answers now, for the plan (which then
 * counts them as free): role tokens and real-tenant alternatives.
 */
export function cachedTokenKeys(target: ResolvedTarget, cacheDir: string, validUntil: number): Set<string> {
  const cache = new TokenCache(cacheDir);
  const cached = new Set<string>();
  for (const role of Object.keys(target.roles) as RoleName[]) {
    const key = roleCacheKey(target, role);
    if (key && cache.get(key, validUntil)) cached.add(sharedKeys.token(role));
  }
  const { otherAudience, otherTenant } = target.tokenAlternatives;
  for (const [name, client] of [
    ['other_audience', otherAudience],
    ['other_tenant', otherTenant],
  ] as const) {
    if (client && cache.get(foreignCacheKey(client), validUntil)) cached.add(sharedKeys.token(name));
  }
  return cached;
}

/** When an issued token expires: the sooner of expires_in and the token's own exp claim; undefined when neither says. */
function expiryOf(exchange: Exchange, token: string): number | undefined {
  const expiresIn = (exchange.json as { expires_in?: unknown }).expires_in;
  const fromResponse = typeof expiresIn === 'number' && expiresIn > 0 ? exchange.at + expiresIn * 1000 : undefined;
  let fromClaim: number | undefined;
  try {
    const exp = decodeJwt(token).exp;
    if (typeof exp === 'number') fromClaim = exp * 1000;
  } catch {
    // Not a JWT the suite can read: expires_in alone says.
  }
  const known = [fromResponse, fromClaim].filter((t): t is number => t !== undefined);
  return known.length > 0 ? Math.min(...known) : undefined;
}

function quotaSpentBy(exchange: Exchange): boolean {
  const header = exchange.headers[QUOTA_HEADER];
  return exchange.status === 429 && header !== undefined && quotaSpentUntil(header, exchange.at) !== undefined;
}

function quotaNote(exchange: Exchange): string {
  const header = exchange.headers[QUOTA_HEADER];
  return header === undefined ? '' : `, token quota: ${describeQuota(header)}`;
}

function refusedRole(role: RoleName, exchange: Exchange): HarnessError {
  if (quotaSpentBy(exchange)) {
    return new HarnessError(
      'TOKEN_QUOTA',
      `the token endpoint refused role ${role}: its token quota is spent (${quotaNote(exchange).slice(2)})`,
    );
  }
  const reason = exchange.json && typeof exchange.json === 'object' ? (exchange.json as { error?: unknown }).error : undefined;
  return new HarnessError(
    'TOKEN_UNAVAILABLE',
    `the token endpoint refused role ${role} (status ${exchange.status}${reason ? `, ${shownValue(reason)}` : ''}${quotaNote(exchange)}); check its credentials in the target file`,
  );
}

/**
 * The key client's token request (RFC 7523 2.2: client credentials with a client assertion in
 * place of a secret), form-encoded, with `fields` changed (undefined: left out).
 */
export function keyClientTokenRequest(
  tokenUrl: string,
  target: ResolvedTarget,
  fields: Record<string, string | undefined>,
): OutgoingRequest {
  const keyClient = target.tokenAlternatives.keyClient;
  if (!keyClient) throw new Error('suite bug: a key client token request was asked of a target without token_alternatives.key_client');
  const all: Record<string, string | undefined> = {
    grant_type: 'client_credentials',
    client_id: keyClient.clientId,
    client_assertion_type: observed.tokens.client_assertion.type,
    audience: target.audience,
    ...fields,
  };
  const sent = Object.entries(all).filter((entry): entry is [string, string] => entry[1] !== undefined);
  return { method: 'POST', url: tokenUrl, label: 'token', headers: FORM_HEADERS, body: new URLSearchParams(sent).toString() };
}

const FORM_HEADERS = { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' };
const JSON_HEADERS = { 'content-type': 'application/json', accept: 'application/json' };

/** What a header value can carry as written: printable ASCII and the space. */
const HEADER_TEXT = /^[\x20-\x7E]+$/;

/**
 * A token that cannot travel in an Authorization header at all (CR/LF, NUL, DEL, characters
 * outside ASCII) is the token endpoint's error: said plainly here, when it is issued, since no
 * request can carry it. One that can travel but is no bearer token (RFC 6750 b64token: a space in
 * it, as in "Bearer eyJ...") is sent as issued: the target judges it, and the token endpoint's
 * test (token.endpoint: a JWT, a compact JWS) fails it, so the run ends FAIL rather than stopping.
 */
function sendable(token: string): string {
  if (HEADER_TEXT.test(token)) return token;
  const bad = [...token].find((c) => !/[\x20-\x7E]/.test(c)) ?? '';
  const code = (bad.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0');
  throw new HarnessError(
    'TARGET_GARBAGE',
    `the token endpoint issued an access token that cannot be sent in an Authorization header: it holds U+${code}, which no header value carries`,
  );
}

function accessTokenOf(json: unknown): string | undefined {
  const token = (json as { access_token?: unknown } | undefined)?.access_token;
  return typeof token === 'string' && token.length > 0 ? token : undefined;
}

/** The fields of a token request: its form or JSON body, or the query of a GET. */
function tokenFieldsOf(request: OutgoingRequest): URLSearchParams {
  const fields = bodyFieldsOf(request);
  // A POST's query parameters and HTTP Basic credentials (RFC 6749 2.3.1), which a server may read too.
  if (request.body !== undefined)
    for (const [name, value] of new URL(request.url).searchParams) if (!fields.has(name)) fields.set(name, value);
  const basic = basicCredentialsOf(request.headers.authorization);
  if (basic) for (const [name, value] of Object.entries(basic)) fields.set(name, value);
  return fields;
}

/** The client id and secret of a Basic Authorization value, form-decoded once; undefined for anything else. */
function basicCredentialsOf(authorization: string | string[] | undefined): { client_id: string; client_secret: string } | undefined {
  const encoded = typeof authorization === 'string' ? /^Basic +(\S+)$/i.exec(authorization)?.[1] : undefined;
  if (encoded === undefined) return undefined;
  const decoded = Buffer.from(encoded, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  const formDecoded = (text: string) => {
    try {
      return decodeURIComponent(text.replace(/\+/g, ' '));
    } catch {
      return text;
    }
  };
  return { client_id: formDecoded(decoded.slice(0, colon)), client_secret: formDecoded(decoded.slice(colon + 1)) };
}

function bodyFieldsOf(request: OutgoingRequest): URLSearchParams {
  if (request.body === undefined) return new URL(request.url).searchParams;
  try {
    const json: unknown = JSON.parse(request.body);
    if (json !== null && typeof json === 'object' && !Array.isArray(json))
      return new URLSearchParams(
        Object.entries(json).flatMap(([k, v]): Array<[string, string]> => (typeof v === 'string' ? [[k, v]] : [])),
      );
  } catch {
    // Not JSON: a form.
  }
  return new URLSearchParams(request.body);
}

/** A token's kid, where it is a JWS that names one. */
function kidOf(token: string): string | undefined {
  try {
    return decodeProtectedHeader(token).kid;
  } catch {
    return undefined;
  }
}
