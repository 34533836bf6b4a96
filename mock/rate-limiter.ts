// The tenant's rate limit: a token bucket of `bucketSize` requests, refilled continuously at
// `refillPerSecond`. Every management-interface request takes one token; an empty bucket means
// 429. The three X-RateLimit headers describe the bucket after the request, the way the service's
// documentation describes them: Limit is the bucket size, Remaining the whole requests left,
// Reset the Unix time in seconds at which the next token is added.
import { observed } from '../specs/index.ts';
import type { Clock } from './clock.ts';

export interface RateLimitConfig {
  bucketSize: number;
  refillPerSecond: number;
}

export interface Quota {
  allowed: boolean;
  limit: number;
  /** Whole requests left after this one, never below 0. */
  remaining: number;
  /** Unix time in seconds (rounded up) when the next token is added; never in the past. */
  resetSeconds: number;
}

export interface RateLimiter {
  readonly config: RateLimitConfig;
  /** Takes one token for a request, if there is one. */
  take(): Quota;
}

/** One token, in the bucket's units (token-milliseconds per second): integer rates stay exact. */
const TOKEN = 1000;

export function createRateLimiter(config: RateLimitConfig, clock: Clock): RateLimiter {
  const capacity = config.bucketSize * TOKEN;
  let units = capacity;
  let updatedAt = clock.now();

  function refill(now: number): void {
    // A clock set backwards adds nothing (and takes nothing away).
    if (now > updatedAt) units = Math.min(capacity, units + (now - updatedAt) * config.refillPerSecond);
    updatedAt = now;
  }

  function quota(allowed: boolean, now: number): Quota {
    // The next token is added when the bucket reaches the next whole token.
    const msToNext = (TOKEN - (units % TOKEN)) / config.refillPerSecond;
    return {
      allowed,
      limit: config.bucketSize,
      remaining: Math.max(0, Math.floor(units / TOKEN)),
      resetSeconds: Math.ceil((now + msToNext) / 1000),
    };
  }

  return {
    config,
    take() {
      const now = clock.now();
      refill(now);
      if (units < TOKEN) return quota(false, now);
      units -= TOKEN;
      return quota(true, now);
    },
  };
}

/** The three X-RateLimit headers of a quota (names from observed.rate_limit.headers). */
export function rateLimitHeaders(quota: Quota): Record<string, string> {
  const names = observed.rate_limit.headers;
  return {
    [names.limit]: String(quota.limit),
    [names.remaining]: String(quota.remaining),
    [names.reset]: String(quota.resetSeconds),
  };
}
