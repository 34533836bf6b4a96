// The limiter and its headers: a Redis fixed-window counter in place of the bucket, a sliding log
// whose entries are keyed by their millisecond (so one instant counts once); and the observed rules:
// Limit written in the IETF draft's quota-policy syntax, and the headers of admitted requests
// spelled with underscores by a CGI-style layer. Each changes when a request is refused or what a
// header says; everything else is answered as before.
import type { Clock } from '../../../clock.ts';
import type { Quota, RateLimitConfig, RateLimiter } from '../../../rate-limiter.ts';
import { capture } from '../../support/captured.ts';
import { editReplies, MANAGEMENT_ROUTES } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';

const LIMIT = 'x-ratelimit-limit';
const RATE_LIMIT_HEADER = /^x-ratelimit-/i;
const headerName = (headers: Record<string, string>, name: string) => Object.keys(headers).find((header) => header.toLowerCase() === name);

/** INCR rl:<window> with EXPIRE: a counter per fixed window of bucketSize / refillPerSecond seconds. */
function fixedWindowLimiter(config: RateLimitConfig, clock: Clock): RateLimiter {
  const windowMs = Math.max(1, Math.round((config.bucketSize / config.refillPerSecond) * 1000));
  let window = -1;
  let count = 0;
  return {
    config,
    take(): Quota {
      const now = clock.now();
      const current = Math.floor(now / windowMs);
      if (current !== window) {
        window = current;
        count = 0;
      }
      const allowed = count < config.bucketSize;
      if (allowed) count += 1;
      return {
        allowed,
        limit: config.bucketSize,
        remaining: Math.max(0, config.bucketSize - count),
        resetSeconds: Math.ceil(((current + 1) * windowMs) / 1000),
      };
    },
  };
}

/** A sliding log in a sorted set whose member is the request's millisecond: ZADD of the same member adds nothing. */
function millisecondKeyedLimiter(inner: RateLimiter, clock: Clock): RateLimiter {
  let last: { at: number; quota: Quota } | undefined;
  return {
    config: inner.config,
    take(): Quota {
      const now = clock.now();
      if (last && last.at === now && last.quota.allowed) return last.quota;
      const quota = inner.take();
      last = { at: now, quota };
      return quota;
    },
  };
}

export const rateLimitFaults = heldOutFamily([
  {
    id: 'ho20-fixed-window-counter',
    clause: 'redeliver.errors.429',
    level: 'contract',
    bug: 'The bucket replaced by a Redis fixed-window counter (INCR of a key per window of bucket-size / refill-rate seconds, with EXPIRE): a client that empties its allowance just before a window ends is given a whole new allowance at the boundary, so a burst of twice the bucket size within a fraction of a second is admitted instead of 429; a burst within one window is limited as before.',
    install: (app) => app.override('limiter', (limiter, built) => fixedWindowLimiter(limiter.config, built.clock!)),
  },
  {
    id: 'ho20-same-millisecond-collapsed',
    clause: 'redeliver.errors.429',
    level: 'contract',
    bug: 'A sliding-log limiter keeping requests in a sorted set with the millisecond timestamp as member (ZADD key now now): requests in the same millisecond are one member and count once, so a burst sent at one instant is never limited instead of 429 once the bucket is empty; requests a millisecond apart are counted as before.',
    install: (app) => app.override('limiter', (limiter, built) => millisecondKeyedLimiter(limiter, built.clock!)),
  },
  {
    id: 'ho20-limit-quota-policy-syntax',
    clause: 'rate-limit.limit.constant',
    level: 'observed',
    bug: 'X-RateLimit-Limit written in the IETF RateLimit draft\'s quota-policy syntax, the size and its window: "2;w=2000" instead of "2" for a bucket of 2 refilled at 0.001 a second; Remaining and Reset are as before.',
    install: (app) => {
      const limiter = capture(app, 'limiter');
      editReplies(app, MANAGEMENT_ROUTES, (reply) => {
        const name = headerName(reply.headers, LIMIT);
        const { bucketSize, refillPerSecond } = limiter().config;
        return name === undefined
          ? reply
          : { ...reply, headers: { ...reply.headers, [name]: `${reply.headers[name]};w=${Math.round(bucketSize / refillPerSecond)}` } };
      });
    },
  },
  {
    id: 'ho20-headers-underscored-on-success',
    clause: 'rate-limit.headers.on-success',
    level: 'observed',
    bug: 'The headers of admitted requests copied from a CGI-style environment (HTTP_X_RATELIMIT_LIMIT written back with its underscores): a 2xx answer carries X_RateLimit_Limit, X_RateLimit_Remaining and X_RateLimit_Reset instead of X-RateLimit-*; errors and 429s carry them as before.',
    install: (app) =>
      editReplies(app, MANAGEMENT_ROUTES, (reply) =>
        reply.status >= 200 && reply.status < 300
          ? {
              ...reply,
              headers: Object.fromEntries(
                Object.entries(reply.headers).map(([name, value]) => [
                  RATE_LIMIT_HEADER.test(name) ? name.replace(/-/g, '_') : name,
                  value,
                ]),
              ),
            }
          : reply,
      ),
  },
]);
