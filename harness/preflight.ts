// Before the suite: a token of the global role, then one read of the first vault connection. A
// target that cannot be reached, or whose token endpoint gives no usable token, stops the run
// with what went wrong, said from the answer itself (no such endpoint, a redirect, a 200 without
// a token, the credentials refused), instead of a wall of failed tests; the read tells the state
// of the target's rate limit before the first test, so a target that would keep the suite
// waiting past its bound is said up front.
//
// The token comes from the token cache when it holds one. A cached token the read is refused with
// (401 or 403: the tenant's signing key or the client's grant changed since) is forgotten and one
// is minted instead; the refused read's rate-limit headers still serve as the probe, so the
// preflight never sends more than its two requests.
import { operation } from '../specs/index.ts';
import { RequestBudget } from './budget.ts';
import { HarnessError } from './errors.ts';
import { shownValue } from './failure.ts';
import { TargetHttp, type Exchange } from './http.ts';
import { RateLimitPacer } from './pacer.ts';
import { rateLimitObservation } from './rate-limit-headers.ts';
import type { RateLimitObservation, ResolvedTarget, TokenPolicy } from './settings.ts';
import { SharedRequests } from './shared.ts';
import { TOKEN_REUSE_MARGIN_MS, TokenProvider, type TokenUse } from './tokens.ts';

/** The preflight's requests: a token of the global role and one probe read. */
export const PREFLIGHT_REQUESTS = 2;

export interface Preflight {
  requests: number;
  probe?: RateLimitObservation;
  tokens: TokenUse;
  /** What went wrong with the token cache, if anything. */
  cacheProblems: readonly string[];
}

export interface PreflightOptions {
  requestTimeoutMs: number;
  tokenPolicy?: TokenPolicy;
  /** The run's bound (ms since the epoch): a cached token must outlive it. */
  deadline: number;
}

/** The preflight; a target it cannot use is a HarnessError whose `requests` says what it sent. */
export async function preflight(target: ResolvedTarget, options: PreflightOptions): Promise<Preflight> {
  const budget = new RequestBudget(PREFLIGHT_REQUESTS);
  const deadline = Date.now() + PREFLIGHT_REQUESTS * options.requestTimeoutMs + 1_000;
  // The provider witnesses every token answer (counts what was minted, reads the quota header);
  // the last one is what a refusal is explained from.
  const seen: { tokens?: TokenProvider; tokenAnswer?: Exchange } = {};
  const http = new TargetHttp({
    budget,
    pacer: new RateLimitPacer({ share: 1, testDouble: true, deadline }),
    requestTimeoutMs: options.requestTimeoutMs,
    deadline,
    onAnswer: (exchange) => {
      seen.tokens?.witness(exchange);
      if (exchange.request.label === 'token') seen.tokenAnswer = exchange;
    },
  });
  const tokens = new TokenProvider(http, target, new SharedRequests(), {
    ...(options.tokenPolicy ? { policy: options.tokenPolicy } : {}),
    validUntil: options.deadline + TOKEN_REUSE_MARGIN_MS,
  });
  seen.tokens = tokens;
  const done = (probe?: RateLimitObservation): Preflight => ({
    requests: budget.used,
    ...(probe ? { probe } : {}),
    tokens: tokens.use,
    cacheProblems: tokens.cacheProblems,
  });
  try {
    const token = await tokens.tokenFor('global').catch((error: unknown) => {
      // A token endpoint that gave no usable token is said from its answer.
      const problem = seen.tokenAnswer && tokenEndpointProblem(seen.tokenAnswer, tokens.tokenUrl);
      if (!problem) throw error;
      const breach = tokenEndpointBreach(seen.tokenAnswer!, tokens.tokenUrl);
      throw Object.assign(new HarnessError('TOKEN_UNAVAILABLE', problem), breach ? { breach } : {});
    });
    const id = target.fixtures.vaultConnections[0];
    if (id === undefined) return done();
    const path = operation('vault').pathTemplate.replace('{id}', encodeURIComponent(id));
    const exchange = await http.send({
      method: 'GET',
      url: `${target.baseUrl}${path}`,
      headers: { accept: 'application/json', authorization: `Bearer ${token}` },
      label: 'vault',
    });
    const probe = rateLimitObservation(exchange.headers, Date.now());
    if (tokens.use.reused > 0 && (exchange.status === 401 || exchange.status === 403)) await tokens.replaceCached('global');
    return done(probe);
  } catch (error) {
    if (error instanceof HarnessError) throw Object.assign(error, { requests: budget.used });
    throw error;
  } finally {
    await http.close();
  }
}

/** OAuth error codes that say the client's credentials were refused (RFC 6749 section 5.2). */
const REFUSED_CREDENTIALS = new Set(['invalid_client', 'unauthorized_client', 'access_denied', 'invalid_grant']);

/** What is wrong with the token endpoint's answer to the global role, if anything. */
export function tokenEndpointProblem(exchange: Exchange, tokenUrl: string): string | undefined {
  const json = exchange.json as { access_token?: unknown; error?: unknown } | undefined;
  const token = typeof json === 'object' && json !== null && !Array.isArray(json) ? json.access_token : undefined;
  if (exchange.status === 200 && typeof token === 'string' && token.length > 0) return undefined;
  const where = `the token endpoint (POST ${tokenUrl})`;
  const { status } = exchange;
  if (status >= 300 && status < 400) {
    const location = exchange.headers.location;
    if (location !== undefined && sameEndpointWithoutSlash(location, tokenUrl)) {
      return `${where} answered ${status}, a redirect to ${shownValue(location)}: the same endpoint without the trailing slash. Section 5 (rule 3) names the token endpoint {auth_url}/oauth/token/ with the slash (token.endpoint), and the service issues tokens there as it does without it (observed, token.observed.json-request): the target breaks token.endpoint. The suite follows no redirect of the token endpoint, so it has no token to run a test with`;
    }
    return `${where} answered ${status}, a redirect${location ? ` to ${shownValue(location)}` : ''}; the suite follows no redirect of the token endpoint: set auth_url in the target file to the origin that issues tokens`;
  }
  if (status === 404 || status === 405) {
    return `${where} answered ${status}: there is no token endpoint there; check auth_url in the target file (the suite asks {auth_url}/oauth/token/)`;
  }
  const nearName = status === 200 ? accessTokenUnderAnotherName(exchange.json) : undefined;
  if (nearName !== undefined) {
    return `${where} answered 200 with its token under ${shownValue(nearName)}, not access_token: RFC 6749 5.1 names the member access_token, and section 5 (rule 3) has the endpoint issue tokens (token.endpoint): the target breaks token.endpoint. The suite reads no other name, so it has no token to run a test with`;
  }
  if (status === 200) {
    return `${where} answered 200 without an access_token (body: ${exchange.json === undefined ? 'not JSON' : shownValue(exchange.json)}); it is not a client-credentials token endpoint, or not this one: check auth_url`;
  }
  const code = typeof json === 'object' && json !== null ? json.error : undefined;
  if (status === 401 || status === 403 || (typeof code === 'string' && REFUSED_CREDENTIALS.has(code))) {
    return `${where} refused the credentials of role global (status ${status}${code !== undefined ? `, error ${shownValue(code)}` : ''}); check roles.global (client_id, and the secret it names) in the target file`;
  }
  return `${where} answered ${status}${code !== undefined ? ` (error ${shownValue(code)})` : ''} instead of a token`;
}

/**
 * A preflight answer that breaks a clause of the contract, not only a target file's setting: the
 * test it stands for, failed. The run still stops (it has no token), but its verdict is FAIL.
 */
export interface PreflightBreach {
  /** A test title citing the clause, as the suites' titles do. */
  title: string;
  expected: string;
  actual: string;
}

/**
 * The spec's token URL answered with a redirect to the same endpoint without its trailing slash:
 * section 5 (rule 3) names {auth_url}/oauth/token/ as where tokens are issued (token.endpoint),
 * so the target breaks it whatever it does at the other URL. Or it answered 200 with the token
 * under a near name of access_token (RFC 6749 5.1 names the member): it issues no token a client
 * can read, which breaks the same clause.
 */
export function tokenEndpointBreach(exchange: Exchange, tokenUrl: string): PreflightBreach | undefined {
  const nearName = exchange.status === 200 ? accessTokenUnderAnotherName(exchange.json) : undefined;
  if (nearName !== undefined) {
    return {
      title: `[§5 token.endpoint] the token endpoint issues the global role a token at ${tokenUrl}, the URL section 5 names (the preflight's request)`,
      expected: '200 with an access_token (RFC 6749 5.1)',
      actual: `200 with the token under ${shownValue(nearName)}`,
    };
  }
  const { location } = exchange.headers;
  if (exchange.status < 300 || exchange.status >= 400 || location === undefined || !sameEndpointWithoutSlash(location, tokenUrl))
    return undefined;
  return {
    title: `[§5 token.endpoint] the token endpoint issues the global role a token at ${tokenUrl}, the URL section 5 names (the preflight's request)`,
    expected: '200 with an access_token',
    actual: `${exchange.status}, a redirect to ${shownValue(location)} (the same endpoint without the trailing slash)`,
  };
}

/**
 * The member of a token answer that holds a string under a near name of access_token (accessToken,
 * AccessToken, ACCESS_TOKEN, access-token: the same letters, another case or separator), where it
 * has no access_token: a token endpoint whose serializer renamed the members (protobuf's JSON
 * names, a camelCase policy), not another service.
 */
export function accessTokenUnderAnotherName(json: unknown): string | undefined {
  if (json === null || typeof json !== 'object' || Array.isArray(json) || 'access_token' in json) return undefined;
  const folded = (name: string) => name.replace(/[-_]/g, '').toLowerCase();
  return Object.entries(json).find(([name, value]) => folded(name) === 'accesstoken' && typeof value === 'string' && value !== '')?.[0];
}

/** Whether a redirect's Location names the token URL itself without its trailing slash (same origin, same path). */
export function sameEndpointWithoutSlash(location: string, tokenUrl: string): boolean {
  let to: URL;
  const from = new URL(tokenUrl);
  try {
    to = new URL(location, from);
  } catch {
    return false;
  }
  return from.pathname.endsWith('/') && to.origin === from.origin && to.pathname === from.pathname.replace(/\/+$/, '');
}

/** Whether the probe's headers would keep the suite from sending anything before the bound. */
export function waitPastBound(probe: RateLimitObservation | undefined, deadline: number): string | undefined {
  if (!probe || probe.remaining !== 0 || probe.resetAtMs === undefined) return undefined;
  if (probe.resetAtMs <= deadline) return undefined;
  const wait = Math.round((probe.resetAtMs - probe.atMs) / 1000);
  return `the target's rate limit would keep the suite waiting ${wait} s (X-RateLimit-Remaining 0, X-RateLimit-Reset ${dateText(probe.resetAtMs)}), past the run's time bound of ${Math.round((deadline - probe.atMs) / 1000)} s`;
}

/** A time a target sent, as a date where a date can hold it (a Reset can be any number). */
function dateText(ms: number): string {
  const date = new Date(ms);
  return Number.isNaN(date.getTime()) ? `${ms / 1000} (seconds since 1970, past any date)` : date.toISOString();
}
