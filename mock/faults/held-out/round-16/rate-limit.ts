// The limiter and its headers: tokens taken only on the verifier's slow path (a token it has seen
// costs nothing), and a count started again each time the limiter refuses; and the observed rule:
// X-RateLimit-Limit written as the requests of a first second (the burst plus one second's
// refill). Each changes when a request is refused or what a header says; everything else is
// answered as before.
import { operationKeys } from '../../../../specs/index.ts';
import type { Clock } from '../../../clock.ts';
import type { Quota, RateLimitConfig, RateLimiter } from '../../../rate-limiter.ts';
import { MANAGEMENT_ROUTES } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { refundingBucket } from '../round-6/support/bucket.ts';

/** One request, in the bucket's units (token-milliseconds per second), as rate-limiter.ts counts. */
const TOKEN = 1000;

/** The mock's token bucket, but that it is full again as soon as it has refused a request. */
function restartingBucket(config: RateLimitConfig, clock: Clock): RateLimiter {
  const capacity = config.bucketSize * TOKEN;
  let units = capacity;
  let updatedAt = clock.now();
  const quota = (allowed: boolean, now: number): Quota => {
    const msToNext = (TOKEN - (units % TOKEN)) / config.refillPerSecond;
    return {
      allowed,
      limit: config.bucketSize,
      remaining: Math.max(0, Math.floor(units / TOKEN)),
      resetSeconds: Math.ceil((now + msToNext) / 1000),
    };
  };
  return {
    config,
    take(): Quota {
      const now = clock.now();
      if (now > updatedAt) units = Math.min(capacity, units + (now - updatedAt) * config.refillPerSecond);
      updatedAt = now;
      if (units < TOKEN) {
        const refused = quota(false, now);
        units = capacity;
        return refused;
      }
      units -= TOKEN;
      return quota(true, now);
    },
  };
}

export const rateLimitFaults = heldOutFamily([
  {
    id: 'ho16-limit-charged-on-verifier-slow-path',
    clause: 'redeliver.errors.429',
    level: 'contract',
    bug: "The limiter charged inside the token verifier's slow path (a guard against floods of signature checks), so that a request whose token the verifier has already checked costs nothing: a burst of requests reusing one token, as every client does, is never refused (429) once the bucket's size is passed; a burst where each request carries a token not seen before is refused as before.",
    install: (app) => {
      let credential: string | undefined;
      const verified = new Set<string>();
      app.override('limiter', (limiter, built): RateLimiter => {
        const bucket = refundingBucket(limiter.config, built.clock!);
        return {
          config: limiter.config,
          take(): Quota {
            if (credential === undefined || !verified.has(credential)) return bucket.take();
            const quota = bucket.take();
            if (!quota.allowed) return { ...quota, allowed: true };
            bucket.refund();
            return { ...quota, remaining: Math.min(quota.limit, quota.remaining + 1) };
          },
        };
      });
      for (const key of MANAGEMENT_ROUTES)
        app.wrapRoute(key, (next) => async (exchange) => {
          const { authorization } = exchange.headers;
          credential = authorization;
          const reply = await next(exchange);
          // The operations authenticate; a token they did not refuse (401) nor leave unread (429) was checked.
          if (
            authorization !== undefined &&
            (operationKeys as readonly string[]).includes(key) &&
            reply.status !== 401 &&
            reply.status !== 429
          )
            verified.add(authorization);
          return reply;
        });
    },
  },
  {
    id: 'ho16-count-restarted-on-refusal',
    clause: 'redeliver.errors.429',
    level: 'contract',
    bug: 'A limiter written as a count per window that starts the count again in the branch that answers 429 (count = 0, meant for the branch where the window has passed): after each 429 the whole bucket is available again, so a long burst gets one 429 in every bucket size + 1 requests instead of 429s until the bucket refills; the first 429 comes as before.',
    install: (app) => app.override('limiter', (limiter, built) => restartingBucket(limiter.config, built.clock!)),
  },
  {
    id: 'ho16-limit-burst-plus-refill',
    clause: 'rate-limit.limit.constant',
    level: 'observed',
    bug: "X-RateLimit-Limit written as the requests a client may make in its first second, the burst plus one second's refill (the figure the plan's page shows): a bucket of 10 refilled at 2 a second says Limit 12 instead of 10 (the bucket's size) on every answer; Remaining and Reset are as before.",
    install: (app) =>
      app.override('limiter', (limiter): RateLimiter => ({
        config: limiter.config,
        take(): Quota {
          const quota = limiter.take();
          return { ...quota, limit: limiter.config.bucketSize + Math.floor(limiter.config.refillPerSecond) };
        },
      })),
  },
]);
