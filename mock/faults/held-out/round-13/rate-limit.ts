// The limiter and its headers: a bucket read and written back around an await (concurrent requests
// all see it full), and buckets keyed by the client's X-Forwarded-For; and the observed rules:
// Limit taken from the default plan's table, Reset rounded down to a ten-second grid, and
// Remaining kept in an unsigned 32-bit counter. Each changes one count or one header; everything
// else is answered as before.
import { observed } from '../../../../specs/index.ts';
import { createRateLimiter, type Quota, type RateLimiter } from '../../../rate-limiter.ts';
import { MANAGEMENT_ROUTES, editReplies } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { headerOf, withHeader } from '../support/answers.ts';

const HEADERS = observed.rate_limit.headers;
const DEFAULT_PLAN_LIMIT = observed.rate_limit.profiles.production.bucket_size;
/** The round trip of reading the bucket from the shared store. */
const STORE_MS = 25;
const RESET_GRID_SECONDS = 10;
const UINT32 = 2 ** 32;

export const rateLimitFaults = heldOutFamily([
  {
    id: 'ho13-bucket-read-then-written',
    clause: 'redeliver.errors.429',
    level: 'contract',
    bug: `The bucket kept in a shared store and updated by reading it, awaiting the store (${STORE_MS} ms), and writing back what was read less one, with no atomic decrement: requests sent at once all read the same count, all pass and use up one token between them, so a burst of four concurrent redeliveries against a bucket of two is answered 202 four times instead of two 429s; the same four sent one after the other still meet 429.`,
    install: (app) => {
      let inFlight = 0;
      let read: Quota | undefined;
      app.override('limiter', (limiter): RateLimiter => ({
        config: limiter.config,
        take(): Quota {
          if (read) return read;
          const quota = limiter.take();
          if (inFlight > 1) read = quota;
          return quota;
        },
      }));
      for (const key of MANAGEMENT_ROUTES)
        app.wrapRoute(key, (next) => async (exchange) => {
          inFlight += 1;
          try {
            await new Promise((resolve) => setTimeout(resolve, STORE_MS));
            return await next(exchange);
          } finally {
            inFlight -= 1;
            if (inFlight === 0) read = undefined;
          }
        });
    },
  },
  {
    id: 'ho13-bucket-keyed-by-forwarded-for',
    clause: 'redeliver.errors.429',
    level: 'contract',
    bug: "Buckets kept per client address, the address taken from the first entry of X-Forwarded-For (trust proxy on) where the service limits the tenant as a whole: a burst past the bucket's size whose requests each carry a different X-Forwarded-For is never answered 429; the same burst with one address, or with no header, still meets 429.",
    install: (app) => {
      let address: string | undefined;
      app.override('limiter', (limiter, built): RateLimiter => {
        const buckets = new Map<string, RateLimiter>();
        return {
          config: limiter.config,
          take(): Quota {
            if (address === undefined) return limiter.take();
            let bucket = buckets.get(address);
            if (!bucket) buckets.set(address, (bucket = createRateLimiter(limiter.config, built.clock!)));
            return bucket.take();
          },
        };
      });
      for (const key of MANAGEMENT_ROUTES)
        app.wrapRoute(key, (next) => (exchange) => {
          const forwarded = exchange.headers['x-forwarded-for'];
          address = typeof forwarded === 'string' ? forwarded.split(',')[0]!.trim() : undefined;
          return next(exchange);
        });
    },
  },
  {
    id: 'ho13-limit-from-default-plan',
    clause: 'rate-limit.limit.constant',
    level: 'observed',
    bug: `X-RateLimit-Limit looked up in the plans table by the tenant's plan name, which the limiter's configuration does not carry, so the table's default row (the production plan, ${DEFAULT_PLAN_LIMIT}) is answered whatever the bucket: a tenant whose bucket holds 10 is told Limit ${DEFAULT_PLAN_LIMIT}; Remaining and Reset are the bucket's own.`,
    install: (app) =>
      editReplies(app, MANAGEMENT_ROUTES, (reply) =>
        headerOf(reply, HEADERS.limit) === undefined ? reply : withHeader(reply, HEADERS.limit, String(DEFAULT_PLAN_LIMIT)),
      ),
  },
  {
    id: 'ho13-reset-on-ten-second-grid',
    clause: 'rate-limit.reset.unix-seconds',
    level: 'observed',
    bug: `X-RateLimit-Reset rounded down to a ${RESET_GRID_SECONDS}-second grid (Math.floor(reset / ${RESET_GRID_SECONDS}) * ${RESET_GRID_SECONDS}) so that the answers' headers vary less and cache better at the edge: five seconds past a multiple of ten, Reset is up to five seconds in the past; Limit and Remaining are as before.`,
    install: (app) =>
      editReplies(app, MANAGEMENT_ROUTES, (reply) => {
        const reset = Number(headerOf(reply, HEADERS.reset));
        return Number.isInteger(reset)
          ? withHeader(reply, HEADERS.reset, String(Math.floor(reset / RESET_GRID_SECONDS) * RESET_GRID_SECONDS))
          : reply;
      }),
  },
  {
    id: 'ho13-remaining-unsigned-counter',
    clause: 'rate-limit.remaining.falls',
    level: 'observed',
    bug: 'Remaining kept in a Uint32Array shared between workers and decremented by every request, refused ones included, before it is compared: on a 429 the counter has gone from 0 to -1, which it holds as 4294967295, and that is the Remaining answered; successful answers count down as before.',
    install: (app) =>
      editReplies(app, MANAGEMENT_ROUTES, (reply) =>
        reply.status === 429 && headerOf(reply, HEADERS.remaining) === '0'
          ? withHeader(reply, HEADERS.remaining, String(UINT32 - 1))
          : reply,
      ),
  },
]);
