// The limiter: successful requests skipped (express-rate-limit's skipSuccessfulRequests), and a
// bucket per request URL; and the observed rule: the limiter mounted twice, each request taking two
// tokens. Each changes when a request is refused or what Remaining says; everything else is
// answered as before.
import { createRateLimiter, type Quota, type RateLimiter } from '../../../rate-limiter.ts';
import { MANAGEMENT_ROUTES } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { refundingBucket, type RefundingBucket } from '../round-6/support/bucket.ts';

export const rateLimitFaults = heldOutFamily([
  {
    id: 'ho15-successful-requests-skipped',
    clause: 'redeliver.errors.429',
    level: 'contract',
    bug: "The limiter configured with skipSuccessfulRequests: true (meant: skipFailedRequests, so that refused calls would not cost a retrying client), which gives a request's token back when it succeeds: a burst of successful requests is never refused (429) once the bucket's size is passed; a burst of failing ones (404) is refused as before.",
    install: (app) => {
      let bucket: RefundingBucket | undefined;
      app.override('limiter', (limiter, built) => (bucket = refundingBucket(limiter.config, built.clock!)));
      for (const key of MANAGEMENT_ROUTES)
        app.wrapRoute(key, (next) => async (exchange) => {
          const reply = await next(exchange);
          if (reply.status < 400) bucket?.refund();
          return reply;
        });
    },
  },
  {
    id: 'ho15-bucket-per-url',
    clause: 'redeliver.errors.429',
    level: 'contract',
    bug: "The limiter's key built from req.originalUrl (a key generator copied from a per-endpoint cache), so each resource path has its own bucket where the tenant has one: a burst spread over different ids (different records, or different events) is refused only when one path's own share runs out, so with the bucket emptied on one path a request for another path is served instead of 429; a burst on one path is refused as before.",
    install: (app) => {
      let path: string | undefined;
      app.override('limiter', (limiter, built): RateLimiter => {
        const buckets = new Map<string, RateLimiter>();
        return {
          config: limiter.config,
          take(): Quota {
            if (path === undefined) return limiter.take();
            let bucket = buckets.get(path);
            if (!bucket) buckets.set(path, (bucket = createRateLimiter(limiter.config, built.clock!)));
            return bucket.take();
          },
        };
      });
      for (const key of MANAGEMENT_ROUTES)
        app.wrapRoute(key, (next) => (exchange) => {
          path = exchange.path;
          return next(exchange);
        });
    },
  },
  {
    id: 'ho15-limiter-mounted-twice',
    clause: 'rate-limit.remaining.falls',
    level: 'observed',
    bug: 'The limiter middleware mounted twice, once on the app and once on the API router, each taking a token and the second writing the headers: every request takes two tokens, so X-RateLimit-Remaining falls by two a request (8, 6, 4 ... from a bucket of 10) and the bucket is empty after half as many requests; Limit and Reset are as before.',
    install: (app) =>
      app.override('limiter', (limiter): RateLimiter => ({
        config: limiter.config,
        take(): Quota {
          const first = limiter.take();
          return first.allowed ? limiter.take() : first;
        },
      })),
  },
]);
