// The mock's token bucket (mock/rate-limiter.ts) with one thing done differently, as a limiter
// written by hand gets it wrong: an overdraft of whole requests below empty, a refill never capped
// at the bucket's size, or a reset time written without rounding it to a whole second. Everything
// else counts as the mock's own bucket does.
import type { Clock } from '../../../../clock.ts';
import type { Quota, RateLimitConfig, RateLimiter } from '../../../../rate-limiter.ts';

export interface BucketSlip {
  /** Requests handed out below an empty bucket before it refuses ("remaining < 0" tested after the decrement). */
  overdraft?: number;
  /** The refill is not capped at the bucket's size, so an idle bucket holds more than it can. */
  uncapped?: boolean;
  /** X-RateLimit-Reset written as (now + wait) / 1000, with its fraction. */
  unroundedReset?: boolean;
}

/** One request, in the bucket's units (token-milliseconds per second), as rate-limiter.ts counts. */
const TOKEN = 1000;

export function slippedBucket(config: RateLimitConfig, clock: Clock, slip: BucketSlip): RateLimiter {
  const capacity = config.bucketSize * TOKEN;
  const floor = -(slip.overdraft ?? 0) * TOKEN;
  let units = capacity;
  let updatedAt = clock.now();

  function refill(now: number): void {
    if (now > updatedAt) {
      const filled = units + (now - updatedAt) * config.refillPerSecond;
      units = slip.uncapped ? filled : Math.min(capacity, filled);
    }
    updatedAt = now;
  }

  function quota(allowed: boolean, now: number): Quota {
    const partial = ((units % TOKEN) + TOKEN) % TOKEN;
    const reset = (now + (TOKEN - partial) / config.refillPerSecond) / 1000;
    return {
      allowed,
      limit: config.bucketSize,
      remaining: Math.max(0, Math.floor(units / TOKEN)),
      resetSeconds: slip.unroundedReset ? reset : Math.ceil(reset),
    };
  }

  return {
    config,
    take() {
      const now = clock.now();
      refill(now);
      if (units - TOKEN < floor) return quota(false, now);
      units -= TOKEN;
      return quota(true, now);
    },
  };
}
