// The mock's token bucket (mock/rate-limiter.ts) with one slip of a limiter written by hand: a
// refund() that puts a request's token back, which a wrapper calls for requests that ended in an
// error. Everything else counts as the mock's own bucket does.
import type { Clock } from '../../../../clock.ts';
import type { Quota, RateLimitConfig, RateLimiter } from '../../../../rate-limiter.ts';

/** One request, in the bucket's units (token-milliseconds per second), as rate-limiter.ts counts. */
const TOKEN = 1000;

export interface RefundingBucket extends RateLimiter {
  /** Puts one request's token back (never above the bucket's size). */
  refund(): void;
}

export function refundingBucket(config: RateLimitConfig, clock: Clock): RefundingBucket {
  const capacity = config.bucketSize * TOKEN;
  let units = capacity;
  let updatedAt = clock.now();

  function quota(allowed: boolean, now: number): Quota {
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
      if (now > updatedAt) units = Math.min(capacity, units + (now - updatedAt) * config.refillPerSecond);
      updatedAt = now;
      if (units < TOKEN) return quota(false, now);
      units -= TOKEN;
      return quota(true, now);
    },
    refund() {
      units = Math.min(capacity, units + TOKEN);
    },
  };
}
