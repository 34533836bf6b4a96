// The mock's token bucket (mock/rate-limiter.ts) with one slip of a limiter written by hand: the
// refill measured from when the bucket was made, a timestamp never moved on, instead of from the
// last request; or a bucket that starts empty instead of full. Everything else counts as the
// mock's own bucket does.
import type { Clock } from '../../../../clock.ts';
import type { Quota, RateLimitConfig, RateLimiter } from '../../../../rate-limiter.ts';

export interface BucketSlip {
  /** Each request adds what the time since the bucket was made is worth (capped), not the time since the last one. */
  refillFromStart?: boolean;
  /** The bucket is made with no tokens (a counter initialised to 0). */
  startsEmpty?: boolean;
}

/** One request, in the bucket's units (token-milliseconds per second), as rate-limiter.ts counts. */
const TOKEN = 1000;

export function slippedBucket(config: RateLimitConfig, clock: Clock, slip: BucketSlip): RateLimiter {
  const capacity = config.bucketSize * TOKEN;
  const startedAt = clock.now();
  let units = slip.startsEmpty ? 0 : capacity;
  let updatedAt = startedAt;

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
      const since = slip.refillFromStart ? startedAt : updatedAt;
      if (now > since) units = Math.min(capacity, units + (now - since) * config.refillPerSecond);
      updatedAt = now;
      if (units < TOKEN) return quota(false, now);
      units -= TOKEN;
      return quota(true, now);
    },
  };
}
