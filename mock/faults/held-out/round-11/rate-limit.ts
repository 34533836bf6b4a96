// The limiter and its headers: a refill timer whose period overflows Node's timer range, and buckets per operation in an LRU cache of one; and the
// observed rules: Reset worked out as the time until the bucket is full, and the headers memoised
// for the current second. Each changes one count or one header; everything else is answered as
// before.
import { createRateLimiter, type Quota, type RateLimiter } from '../../../rate-limiter.ts';
import type { RouteKey } from '../../../exchange.ts';
import { MANAGEMENT_ROUTES } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';

/** The longest delay setInterval takes; a longer one is set to 1 ms (with a TimeoutOverflowWarning). */
const TIMER_MAX_MS = 2 ** 31 - 1;
/** A refill of one token a millisecond, which the overflowed timer amounts to. */
const TOKEN_A_MS = 1000;

export const rateLimitFaults = heldOutFamily([
  {
    id: 'ho11-refill-timer-delay-overflow',
    clause: 'redeliver.errors.429',
    level: 'contract',
    bug: `The bucket refilled by setInterval(addToken, 1000 / refillPerSecond): for a rate below one token in ${Math.round(TIMER_MAX_MS / 86_400_000)} days (a bucket meant never to refill in a test, or a tier paused) the delay is over ${TIMER_MAX_MS} ms, which Node replaces with 1 ms, so a token is added every millisecond and a burst past the bucket's size is answered instead of 429; at a rate of a token every 1000 seconds the burst is still refused.`,
    install: (app) =>
      app.override('limiter', (limiter, built) =>
        1000 / limiter.config.refillPerSecond > TIMER_MAX_MS
          ? { ...createRateLimiter({ ...limiter.config, refillPerSecond: TOKEN_A_MS }, built.clock!), config: limiter.config }
          : limiter,
      ),
  },
  {
    id: 'ho11-reset-time-to-full',
    clause: 'rate-limit.headers.consistent',
    level: 'observed',
    bug: "X-RateLimit-Reset worked out as the time until the bucket is full again, now + (limit - remaining) / refillPerSecond, where the time of the next token was meant: with a bucket of 100 refilled at one a second, after 70 requests Reset lies some 70 seconds ahead (more than the minute the answer's Date allows) instead of one; Limit and Remaining are as before.",
    install: (app) =>
      app.override('limiter', (limiter, built) => ({
        config: limiter.config,
        take: (): Quota => {
          const quota = limiter.take();
          const nowSeconds = built.clock!.now() / 1000;
          return { ...quota, resetSeconds: Math.ceil(nowSeconds + (quota.limit - quota.remaining) / limiter.config.refillPerSecond) };
        },
      })),
  },
  {
    id: 'ho11-headers-memoised-per-second',
    clause: 'rate-limit.remaining.falls',
    level: 'observed',
    bug: "The three X-RateLimit headers memoised for the current second (a cache keyed by Math.floor(now / 1000), to spare the bucket a lookup per answer), while the bucket itself counts every request: within one second X-RateLimit-Remaining stays at the first answer's 9 instead of falling 9, 8, 7; the 429 past the bucket comes as before.",
    install: (app) =>
      app.override('limiter', (limiter, built) => {
        let memo: { second: number; quota: Quota } | undefined;
        return {
          config: limiter.config,
          take: (): Quota => {
            const quota = limiter.take();
            const second = Math.floor(built.clock!.now() / 1000);
            if (memo?.second !== second) memo = { second, quota };
            return { ...memo.quota, allowed: quota.allowed };
          },
        };
      }),
  },
  {
    id: 'ho11-buckets-in-lru-of-one',
    clause: 'redeliver.errors.429',
    level: 'contract',
    bug: "The buckets kept per operation in an LRU cache whose size was left at 1 (the option meant the number of tenants), so a request to another operation evicts the bucket and the next one starts from a full one: redeliveries alternated with vault reads are never answered 429, where a burst past the bucket's size must be; a burst of redeliveries alone is still refused.",
    install: (app) => {
      let route: RouteKey | undefined;
      app.override('limiter', (limiter, built) => {
        let cached: { route: RouteKey | undefined; bucket: RateLimiter } | undefined;
        return {
          config: limiter.config,
          take: () => {
            const kept = cached?.route === route ? cached?.bucket : undefined;
            const bucket = kept ?? (cached === undefined ? limiter : createRateLimiter(limiter.config, built.clock!));
            cached = { route, bucket };
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
]);
