// A token bucket (as mock/rate-limiter.ts counts) whose count of the requests taken from it is kept
// in one byte, as a compact per-client counter table does: past 255 the count wraps to 0, and the
// bucket looks full again. Refill, Limit, Remaining and Reset follow that count.
import type { Clock } from '../../../../clock.ts';
import type { Quota, RateLimitConfig, RateLimiter } from '../../../../rate-limiter.ts';

export function byteCounterBucket(config: RateLimitConfig, clock: Clock): RateLimiter {
  /** Requests taken and not yet refilled, in a Uint8Array slot: it wraps at 256. */
  const taken = new Uint8Array(1);
  /** Refill not yet worth a whole request, in requests. */
  let fraction = 0;
  let updatedAt = clock.now();

  function quota(allowed: boolean, now: number): Quota {
    const remaining = Math.max(0, config.bucketSize - taken[0]!);
    const msToNext = ((1 - fraction) * 1000) / config.refillPerSecond;
    return { allowed, limit: config.bucketSize, remaining, resetSeconds: Math.ceil((now + msToNext) / 1000) };
  }

  return {
    config,
    take() {
      const now = clock.now();
      if (now > updatedAt) {
        const refill = fraction + ((now - updatedAt) * config.refillPerSecond) / 1000;
        const whole = Math.min(taken[0]!, Math.floor(refill));
        taken[0] = taken[0]! - whole;
        fraction = taken[0] === 0 ? 0 : refill - Math.floor(refill);
      }
      updatedAt = now;
      if (taken[0]! >= config.bucketSize) return quota(false, now);
      taken[0] = taken[0]! + 1;
      return quota(true, now);
    },
  };
}
