// Before the suite: a token of the global role, then one read of the first vault connection. A
// target that cannot be reached, or credentials it refuses, stop the run with a clear message
// instead of a wall of failed tests; the read tells the state of the target's rate limit before
// the first test, so a target that would keep the suite waiting past its bound is said up front.
//
// The token comes from the token cache when it holds one. A cached token the read is refused with
// (401 or 403: the tenant's signing key or the client's grant changed since) is forgotten and one
// is minted instead; the refused read's rate-limit headers still serve as the probe, so the
// preflight never sends more than its two requests.
import { RequestBudget } from '../harness/budget.ts';
import { HarnessError } from '../harness/errors.ts';
import { TargetHttp } from '../harness/http.ts';
import { RateLimitPacer } from '../harness/pacer.ts';
import { rateLimitObservation } from '../harness/rate-limit-headers.ts';
import type { RateLimitObservation, ResolvedTarget, TokenPolicy } from '../harness/settings.ts';
import { SharedRequests } from '../harness/shared.ts';
import { TOKEN_REUSE_MARGIN_MS, TokenProvider, type TokenUse } from '../harness/tokens.ts';
import { operation } from '../specs/index.ts';
import { PREFLIGHT_REQUESTS } from './plan.ts';

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

export async function preflight(target: ResolvedTarget, options: PreflightOptions): Promise<Preflight> {
  const budget = new RequestBudget(PREFLIGHT_REQUESTS);
  const deadline = Date.now() + PREFLIGHT_REQUESTS * options.requestTimeoutMs + 1_000;
  // The provider witnesses every token answer (counts what was minted, reads the quota header).
  const witness: { tokens?: TokenProvider } = {};
  const http = new TargetHttp({
    budget,
    pacer: new RateLimitPacer({ share: 1, testDouble: true, deadline }),
    requestTimeoutMs: options.requestTimeoutMs,
    deadline,
    onAnswer: (exchange) => witness.tokens?.witness(exchange),
  });
  const tokens = new TokenProvider(http, target, new SharedRequests(), {
    ...(options.tokenPolicy ? { policy: options.tokenPolicy } : {}),
    validUntil: options.deadline + TOKEN_REUSE_MARGIN_MS,
  });
  witness.tokens = tokens;
  const done = (probe?: RateLimitObservation): Preflight => ({
    requests: budget.used,
    ...(probe ? { probe } : {}),
    tokens: tokens.use,
    cacheProblems: tokens.cacheProblems,
  });
  try {
    const token = await tokens.tokenFor('global');
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

/** Whether the probe's headers would keep the suite from sending anything before the bound. */
export function waitPastBound(probe: RateLimitObservation | undefined, deadline: number): string | undefined {
  if (!probe || probe.remaining !== 0 || probe.resetAtMs === undefined) return undefined;
  if (probe.resetAtMs <= deadline) return undefined;
  const wait = Math.round((probe.resetAtMs - probe.atMs) / 1000);
  return `the target's rate limit would keep the suite waiting ${wait} s (X-RateLimit-Remaining 0, X-RateLimit-Reset ${new Date(probe.resetAtMs).toISOString()}), past the run's time bound of ${Math.round((deadline - probe.atMs) / 1000)} s`;
}
