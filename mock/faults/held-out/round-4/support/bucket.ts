// The mock's token bucket (mock/rate-limiter.ts) with one slip of a limiter written by hand: a
// refused request that still takes its token (the count decremented before the check), or the
// X-RateLimit-Reset counted from the bucket's last refill instead of from now. Everything else
// counts as the mock's own bucket does.
import type { Clock } from '../../../../clock.ts';
import type { Quota, RateLimitConfig, RateLimiter } from '../../../../rate-limiter.ts';

export interface BucketSlip {
  /** A refused request still takes its token, so the bucket goes below empty and refills from there. */
  refusalCosts?: boolean;
  /** Reset counted from when the bucket was last refilled (the previous request) instead of from now. */
  resetFromLastRefill?: boolean;
}

/** One request, in the bucket's units (token-milliseconds per second), as rate-limiter.ts counts. */
const TOKEN = 1000;

export function slippedBucket(config: RateLimitConfig, clock: Clock, slip: BucketSlip): RateLimiter {
  const capacity = config.bucketSize * TOKEN;
  let units = capacity;
  let updatedAt = clock.now();

  function quota(allowed: boolean, now: number, lastRefill: number): Quota {
    const partial = ((units % TOKEN) + TOKEN) % TOKEN;
    const from = slip.resetFromLastRefill ? lastRefill : now;
    return {
      allowed,
      limit: config.bucketSize,
      remaining: Math.max(0, Math.floor(units / TOKEN)),
      resetSeconds: Math.ceil((from + (TOKEN - partial) / config.refillPerSecond) / 1000),
    };
  }

  return {
    config,
    take() {
      const now = clock.now();
      const lastRefill = updatedAt;
      if (now > updatedAt) units = Math.min(capacity, units + (now - updatedAt) * config.refillPerSecond);
      updatedAt = now;
      if (units < TOKEN) {
        if (slip.refusalCosts) units -= TOKEN;
        return quota(false, now, lastRefill);
      }
      units -= TOKEN;
      return quota(true, now, lastRefill);
    },
  };
}
