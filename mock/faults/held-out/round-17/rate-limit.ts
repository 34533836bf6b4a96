// The limiter and its headers: a 429 built afresh by an error handler without the X-RateLimit
// headers, and a bucket keyed by the URL with its query; and the observed rules: Reset written as
// an HTTP-date, and the 429 body's error written as an OAuth-style code. Each changes when a
// request is refused or what a header or member says; everything else is answered as before.
import type { Quota, RateLimiter } from '../../../rate-limiter.ts';
import { editReplies, isErrorBody, MANAGEMENT_ROUTES } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { refundingBucket } from '../round-6/support/bucket.ts';

const RATE_HEADERS = /^x-ratelimit-/i;

export const rateLimitFaults = heldOutFamily([
  {
    id: 'ho17-429-headers-dropped',
    clause: 'rate-limit.429.headers',
    level: 'contract',
    bug: 'The 429 answered by an error handler that builds a fresh response (the headers the limiter set on the old one are lost): a refused request carries no X-RateLimit headers; admitted requests carry them as before.',
    install: (app) =>
      editReplies(app, MANAGEMENT_ROUTES, (reply) =>
        reply.status === 429
          ? { ...reply, headers: Object.fromEntries(Object.entries(reply.headers).filter(([name]) => !RATE_HEADERS.test(name))) }
          : reply,
      ),
  },
  {
    id: 'ho17-bucket-keyed-by-query',
    clause: 'redeliver.errors.429',
    level: 'contract',
    bug: 'The bucket keyed by req.originalUrl (a cache-key habit) instead of the client: a request whose query string was not seen before gets a fresh bucket and is admitted instead of 429; a request without a query is refused as before.',
    install: (app) => {
      let query = '';
      const buckets = new Map<string, RateLimiter>();
      app.override('limiter', (limiter, built): RateLimiter => ({
        config: limiter.config,
        take(): Quota {
          if (query === '') return limiter.take();
          let bucket = buckets.get(query);
          if (!bucket) {
            const fresh = refundingBucket(limiter.config, built.clock!);
            bucket = { config: limiter.config, take: () => fresh.take() };
            buckets.set(query, bucket);
          }
          return bucket.take();
        },
      }));
      for (const key of MANAGEMENT_ROUTES)
        app.wrapRoute(key, (next) => async (exchange) => {
          query = exchange.query;
          return next(exchange);
        });
    },
  },
  {
    id: 'ho17-reset-http-date',
    clause: 'rate-limit.reset.unix-seconds',
    level: 'observed',
    bug: 'X-RateLimit-Reset written with new Date(reset * 1000).toUTCString() (Retry-After\'s HTTP-date form): "Sat, 28 Nov 2026 11:00:00 GMT" instead of Unix seconds; Limit and Remaining are as before.',
    install: (app) =>
      editReplies(app, MANAGEMENT_ROUTES, (reply) => {
        const name = Object.keys(reply.headers).find((header) => header.toLowerCase() === 'x-ratelimit-reset');
        const value = name === undefined ? undefined : Number(reply.headers[name]);
        return name === undefined || value === undefined || !Number.isFinite(value)
          ? reply
          : { ...reply, headers: { ...reply.headers, [name]: new Date(value * 1000).toUTCString() } };
      }),
  },
  {
    id: 'ho17-429-error-snake-code',
    clause: 'errors.429.body',
    level: 'observed',
    bug: 'The 429 body\'s error written as an OAuth-style code ("too_many_requests") instead of the reason phrase "Too Many Requests"; statusCode and message are as before.',
    install: (app) =>
      editReplies(app, MANAGEMENT_ROUTES, (reply) =>
        reply.status === 429 && isErrorBody(reply.body) ? { ...reply, body: { ...reply.body, error: 'too_many_requests' } } : reply,
      ),
  },
]);
