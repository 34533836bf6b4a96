// The limiter across requests: a Kong rate-limiting plugin on the service that the token route
// also belongs to; a Redis Lua token bucket whose refused branch stores the time without the refill;
// a NestJS throttler whose 429 is rendered once and reused. A first burst is answered as before.
import { observed } from '../../../../specs/index.ts';
import type { Clock } from '../../../clock.ts';
import type { Reply } from '../../../exchange.ts';
import type { RateLimitConfig, RateLimiter } from '../../../rate-limiter.ts';
import { capture } from '../../support/captured.ts';
import { editReplies, MANAGEMENT_ROUTES } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';

const { remaining: REMAINING, reset: RESET } = observed.rate_limit.headers;
const TOO_MANY = 429;
const TOKEN = 1000;

/**
 * The tenant's bucket as a Redis Lua script keeps it (units of a thousandth of a request), whose
 * refused branch writes the time back without the tokens the elapsed time added.
 */
function refillLostOnRefusal(config: RateLimitConfig, clock: Clock): RateLimiter {
  const capacity = config.bucketSize * TOKEN;
  let units = capacity;
  let updatedAt = clock.now();
  return {
    config,
    take() {
      const now = clock.now();
      const refilled = now > updatedAt ? Math.min(capacity, units + (now - updatedAt) * config.refillPerSecond) : units;
      updatedAt = now;
      const allowed = refilled >= TOKEN;
      if (allowed) units = refilled - TOKEN;
      const msToNext = (TOKEN - (refilled % TOKEN)) / config.refillPerSecond;
      return {
        allowed,
        limit: config.bucketSize,
        remaining: Math.max(0, Math.floor((allowed ? units : refilled) / TOKEN)),
        resetSeconds: Math.ceil((now + msToNext) / 1000),
      };
    },
  };
}

export const rateLimitFaults = heldOutFamily([
  {
    id: 'ho42-kong-service-limiter-counts-token-route',
    clause: 'rate-limit.remaining.falls',
    level: 'observed',
    bug: `A Kong gateway whose rate-limiting plugin (policy redis) is attached to the upstream service that both the management routes and /oauth/token belong to, where it was meant for the management routes only: every token request also takes a request from the management bucket, so ${REMAINING} falls by two across a token request (4, then 2) instead of one, and the bucket runs out early; without token requests between them, management requests count as before, and the token endpoint's own answers are unchanged.`,
    install: (app) => {
      const limiter = capture(app, 'limiter');
      app.wrapRoute('token', (next) => async (exchange) => {
        const reply = await next(exchange);
        limiter().take();
        return reply;
      });
    },
  },
  {
    id: 'ho42-redis-lua-bucket-refusal-drops-refill',
    clause: 'redeliver.errors.429',
    level: 'contract',
    bug: "A Redis Lua token bucket whose refused branch was copied from the allowed one and ends with redis.call('HSET', key, 'ts', now) but not the refilled token count, so the part of a request refilled since the last call is thrown away whenever a request is refused: a client that retries an empty bucket more often than it refills (every 600 ms at one request a second) is refused 429 for ever instead of being let through once a whole request has been refilled; a client that waits a whole refill period before retrying is served as before.",
    install: (app) => app.override('limiter', (current, built) => refillLostOnRefusal(current.config, built.clock!)),
  },
  {
    id: 'ho42-nestjs-429-rendered-once',
    clause: 'rate-limit.reset.unix-seconds',
    level: 'observed',
    bug: `A NestJS service whose ThrottlerGuard throws a ThrottlerException built once, with its headers, into a module-level constant the first time the limit is reached (a "pre-rendered 429" to spare work under a flood): every later 429 carries the first one's ${RESET}, a time that has passed once the bucket has refilled and been spent again, instead of the time of the next refill; the first 429, and every success, carry a Reset still to come.`,
    install: (app) => {
      let first: Reply | undefined;
      editReplies(app, MANAGEMENT_ROUTES, (reply) => {
        if (reply.status !== TOO_MANY) return reply;
        first ??= reply;
        return first;
      });
    },
  },
]);
