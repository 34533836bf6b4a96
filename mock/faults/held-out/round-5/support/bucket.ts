// The mock's token bucket (mock/rate-limiter.ts) with one slip of a limiter written by hand: the
// whole requests left rounded to the nearest (Math.round) where they are counted down
// (Math.floor), so that a bucket holding more than half a request says one is left. Everything else
// counts as the mock's own bucket does.
import type { Clock } from '../../../../clock.ts';
import type { Quota, RateLimitConfig, RateLimiter } from '../../../../rate-limiter.ts';

/** One request, in the bucket's units (token-milliseconds per second), as rate-limiter.ts counts. */
const TOKEN = 1000;

export function roundingBucket(config: RateLimitConfig, clock: Clock): RateLimiter {
  const capacity = config.bucketSize * TOKEN;
  let units = capacity;
  let updatedAt = clock.now();

  function quota(allowed: boolean, now: number): Quota {
    const msToNext = (TOKEN - (units % TOKEN)) / config.refillPerSecond;
    return {
      allowed,
      limit: config.bucketSize,
      remaining: Math.max(0, Math.round(units / TOKEN)),
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
  };
}
