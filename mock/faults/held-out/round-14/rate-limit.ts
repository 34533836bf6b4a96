// The limiter and its headers: a bucket kept per Authorization header (per credential), and one
// per operation, where the tenant has one; and the observed rules: Remaining rounded to the nearest
// whole request where it is rounded down, Reset written as a fraction of a second, a 429's Limit
// written from an empty quota, and Remaining read before the request takes its token. Each
// changes one count or one header; everything else is answered as before.
import type { Clock } from '../../../clock.ts';
import { createRateLimiter, type Quota, type RateLimitConfig, type RateLimiter } from '../../../rate-limiter.ts';
import { observed } from '../../../../specs/index.ts';
import { MANAGEMENT_ROUTES, editReplies } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { headerOf, withHeader } from '../support/answers.ts';

const HEADERS = observed.rate_limit.headers;
/** The limiter's unit: a thousandth of a request. */
const TOKEN = 1000;

/** The mock's token bucket (mock/rate-limiter.ts) with Remaining and Reset rounded as given. */
function bucketWith(
  config: RateLimitConfig,
  clock: Clock,
  round: { remaining?: (requests: number) => number; reset?: (seconds: number) => number },
): RateLimiter {
  const { remaining = Math.floor, reset = Math.ceil } = round;
  const capacity = config.bucketSize * TOKEN;
  let units = capacity;
  let updatedAt = clock.now();
  const quota = (allowed: boolean, now: number): Quota => {
    const msToNext = (TOKEN - (units % TOKEN)) / config.refillPerSecond;
    return {
      allowed,
      limit: config.bucketSize,
      remaining: Math.max(0, remaining(units / TOKEN)),
      resetSeconds: reset((now + msToNext) / 1000),
    };
  };
  return {
    config,
    take(): Quota {
      const now = clock.now();
      if (now > updatedAt) units = Math.min(capacity, units + (now - updatedAt) * config.refillPerSecond);
      updatedAt = now;
      if (units < TOKEN) return quota(false, now);
      units -= TOKEN;
      return quota(true, now);
    },
  };
}

export const rateLimitFaults = heldOutFamily([
  {
    id: 'ho14-bucket-per-credential',
    clause: 'redeliver.errors.429',
    level: 'contract',
    bug: 'Buckets kept per Authorization header, a limiter keyed with keyGenerator: (req) => req.headers.authorization (meant as "per caller", the tenant\'s limit being one bucket): a burst where each request carries a freshly issued token is never refused (429) once the bucket is empty; a burst with one token, or none, is refused as before.',
    install: (app) => {
      let credential: string | undefined;
      app.override('limiter', (limiter, built): RateLimiter => {
        const buckets = new Map<string, RateLimiter>();
        return {
          config: limiter.config,
          take(): Quota {
            if (credential === undefined) return limiter.take();
            let bucket = buckets.get(credential);
            if (!bucket) buckets.set(credential, (bucket = createRateLimiter(limiter.config, built.clock!)));
            return bucket.take();
          },
        };
      });
      for (const key of MANAGEMENT_ROUTES)
        app.wrapRoute(key, (next) => (exchange) => {
          credential = exchange.headers.authorization;
          return next(exchange);
        });
    },
  },
  {
    id: 'ho14-remaining-rounded',
    clause: 'rate-limit.headers.consistent',
    level: 'observed',
    bug: 'Remaining written as Math.round(tokens) of a bucket that refills by fractions, where Math.floor is due: with 0.6 of a request refilled, a 429 says X-RateLimit-Remaining 1 (a request it would refuse) instead of 0, and a success with 1.5 left says 2; with whole requests left the header is as before.',
    install: (app) => app.override('limiter', (limiter, built) => bucketWith(limiter.config, built.clock!, { remaining: Math.round })),
  },
  {
    id: 'ho14-bucket-per-operation',
    clause: 'redeliver.errors.429',
    level: 'contract',
    bug: "The limiter created inside each operation's router module (rateLimit({...}) at module scope, once per route file) where the tenant has one bucket: a burst spread over the operations is refused only when one operation's own share runs out, so with the bucket empty a request to another operation is served instead of 429; a burst on one operation is refused as before.",
    install: (app) => {
      let route: string | undefined;
      app.override('limiter', (limiter, built): RateLimiter => {
        const buckets = new Map<string, RateLimiter>();
        return {
          config: limiter.config,
          take(): Quota {
            if (route === undefined) return limiter.take();
            let bucket = buckets.get(route);
            if (!bucket) buckets.set(route, (bucket = createRateLimiter(limiter.config, built.clock!)));
            return bucket.take();
          },
        };
      });
      for (const key of MANAGEMENT_ROUTES)
        app.wrapRoute(key, (next) => (exchange) => {
          route = key;
          return next(exchange);
        });
    },
  },
  {
    id: 'ho14-reset-fractional-seconds',
    clause: 'rate-limit.reset.unix-seconds',
    level: 'observed',
    bug: 'X-RateLimit-Reset written as (now + msToNext) / 1000 without rounding up: it is a fraction such as "1735689605.5" instead of whole Unix seconds whenever the next request is not due on a whole second; when it is, the header is as before.',
    install: (app) =>
      app.override('limiter', (limiter, built) => bucketWith(limiter.config, built.clock!, { reset: (seconds) => seconds })),
  },
  {
    id: 'ho14-429-limit-from-empty-quota',
    clause: 'rate-limit.limit.constant',
    level: 'observed',
    bug: "The 429 handler writes the headers from a fresh quota object ({ limit: 0, remaining: 0, reset }) instead of the bucket's: a 429 says X-RateLimit-Limit 0 while the answers before it said the bucket size; successes are as before.",
    install: (app) =>
      editReplies(app, MANAGEMENT_ROUTES, (reply) =>
        reply.status === 429 && headerOf(reply, HEADERS.limit) !== undefined ? withHeader(reply, HEADERS.limit, '0') : reply,
      ),
  },
  {
    id: 'ho14-remaining-read-before-take',
    clause: 'rate-limit.remaining.falls',
    level: 'observed',
    bug: 'Remaining read from the bucket before the request takes its token (the middleware peeks, sets the headers, then calls take()): every served request says one more than is left, the first of a full bucket of 10 saying 10 instead of 9 and the last 1 instead of 0; a 429 still says 0.',
    install: (app) =>
      app.override('limiter', (limiter): RateLimiter => ({
        config: limiter.config,
        take(): Quota {
          const quota = limiter.take();
          return quota.allowed ? { ...quota, remaining: Math.min(quota.limit, quota.remaining + 1) } : quota;
        },
      })),
  },
]);
