// The limiter: a Python bucket that reads the elapsed time in microseconds where it means
// milliseconds; and the observed rule: a .NET service writing the Reset from DateTime ticks. When
// requests are refused otherwise is as before.
import { observed } from '../../../../specs/index.ts';
import type { Clock } from '../../../clock.ts';
import type { RateLimitConfig, RateLimiter } from '../../../rate-limiter.ts';
import { editReplies, MANAGEMENT_ROUTES } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { headerOf, withHeader } from '../support/answers.ts';

const { reset: RESET } = observed.rate_limit.headers;
/** Seconds from 0001-01-01 (DateTime.Ticks' origin) to 1970-01-01. */
const TICKS_EPOCH_SECONDS = 62_135_596_800;
/** Microseconds in a millisecond: the factor by which the elapsed time is overstated. */
const MICROS_PER_MS = 1000;

/** The mock's bucket (mock/rate-limiter.ts) with the refill fed the elapsed time in microseconds. */
function microsecondBucket(config: RateLimitConfig, clock: Clock): RateLimiter {
  const token = 1000;
  const capacity = config.bucketSize * token;
  let units = capacity;
  let updatedAt = clock.now();
  const quota = (allowed: boolean, now: number) => {
    const msToNext = (token - (units % token)) / config.refillPerSecond;
    return {
      allowed,
      limit: config.bucketSize,
      remaining: Math.max(0, Math.floor(units / token)),
      resetSeconds: Math.ceil((now + msToNext) / 1000),
    };
  };
  return {
    config,
    take() {
      const now = clock.now();
      if (now > updatedAt) units = Math.min(capacity, units + (now - updatedAt) * MICROS_PER_MS * config.refillPerSecond);
      updatedAt = now;
      if (units < token) return quota(false, now);
      units -= token;
      return quota(true, now);
    },
  };
}

export const rateLimitFaults = heldOutFamily([
  {
    id: 'ho37-refill-elapsed-microseconds-as-ms',
    clause: 'redeliver.errors.429',
    level: 'contract',
    bug: 'A Python token bucket that measures the time since the last request as time.perf_counter_ns() // 1000 (microseconds) and refills elapsed * rate / 1000 as if that were milliseconds: the bucket refills a thousand times too fast, so with the bucket spent, a request made 10 ms later at one request a second is served instead of 429; a request made at the same instant is still refused.',
    install: (app) => app.override('limiter', (limiter, built) => microsecondBucket(limiter.config, built.clock!)),
  },
  {
    id: 'ho37-reset-dotnet-datetime-ticks',
    clause: 'rate-limit.reset.unix-seconds',
    level: 'observed',
    bug: `A .NET service that writes ${RESET} as nextRefill.Ticks / TimeSpan.TicksPerSecond, and DateTime ticks count from 0001-01-01, not from 1970: every answer's ${RESET} is the right instant in seconds since the year 1 (about 63.9 billion) instead of Unix seconds; Limit, Remaining and the 429s are as before.`,
    install: (app) =>
      editReplies(app, MANAGEMENT_ROUTES, (reply) => {
        const reset = Number(headerOf(reply, RESET));
        return Number.isInteger(reset) ? withHeader(reply, RESET, String(reset + TICKS_EPOCH_SECONDS)) : reply;
      }),
  },
]);
