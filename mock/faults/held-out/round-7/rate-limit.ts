// The limiter and its headers: a bucket per route where the tenant has one, writes costing two
// tokens, Remaining read before the token is taken, and Reset's time to the next token divided by
// 1000 once too often. Each changes one header or one count; everything else is answered as before.
import { observed } from '../../../../specs/index.ts';
import { createRateLimiter, type Quota, type RateLimiter } from '../../../rate-limiter.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { limiterPerRequest } from './support/exchange-limiter.ts';

const NAMES = observed.rate_limit.headers;
/** The weight the slip gives a write. */
const WRITE_COST = 2;

/** The limiter with each quota it reports changed by `edit`. */
function reporting(limiter: RateLimiter, edit: (quota: Quota) => Quota): RateLimiter {
  return { config: limiter.config, take: () => edit(limiter.take()) };
}

export const rateLimitFaults = heldOutFamily([
  {
    id: 'ho7-bucket-per-route',
    clause: 'redeliver.errors.429',
    level: 'contract',
    bug: "The limiter keyed by route (a bucket per operation, from a middleware mounted on each router) where the tenant has one bucket: once the tenant's requests to another operation have emptied it, redelivery is still answered instead of 429; redeliveries that empty their own bucket are still refused 429.",
    install: (app) =>
      limiterPerRequest(app, (limiter, built) => {
        const buckets = new Map<string, RateLimiter>();
        return (counted) => {
          const key = counted?.key ?? '';
          let bucket = buckets.get(key);
          if (!bucket) buckets.set(key, (bucket = createRateLimiter(limiter.config, built.clock!)));
          return bucket.take();
        };
      }),
  },
  {
    id: 'ho7-writes-cost-two',
    clause: 'rate-limit.remaining.falls',
    level: 'observed',
    bug: `The limiter weighs writes (POST) at ${WRITE_COST} tokens, a cost table from another service: each redelivery or ticket request takes ${WRITE_COST} from ${NAMES.remaining}, so after one POST on a bucket of two a GET is refused 429 instead of answered; GETs still cost one.`,
    install: (app) =>
      limiterPerRequest(app, (limiter) => (counted) => {
        const first = limiter.take();
        if (!first.allowed || counted?.exchange.method !== 'POST') return first;
        const second = limiter.take();
        return second.allowed ? second : { ...second, allowed: false };
      }),
  },
  {
    id: 'ho7-remaining-read-before-take',
    clause: 'rate-limit.remaining.falls',
    level: 'observed',
    bug: `${NAMES.remaining} read from the bucket before the request's token is taken (an off-by-one of the order of two lines): every allowed answer says one more request is left than there is (the first of a bucket of two says 2, the second 1) instead of 1 and 0; 429s still say 0.`,
    install: (app) =>
      app.override('limiter', (limiter) =>
        reporting(limiter, (quota) => (quota.allowed ? { ...quota, remaining: Math.min(quota.limit, quota.remaining + 1) } : quota)),
      ),
  },
  {
    id: 'ho7-reset-wait-divided-twice',
    clause: 'rate-limit.reset.unix-seconds',
    level: 'observed',
    bug: `${NAMES.reset} computed as now plus the wait for the next token where the wait, already in seconds, is divided by 1000 again: every answer says Reset of the current second or the next, however long the bucket takes to refill, instead of the time the next token is added; Limit and Remaining are unchanged.`,
    install: (app) =>
      app.override('limiter', (limiter, built) =>
        reporting(limiter, (quota) => {
          const nowMs = built.clock!.now();
          const waitSeconds = Math.max(0, quota.resetSeconds - nowMs / 1000);
          return { ...quota, resetSeconds: Math.ceil((nowMs + waitSeconds) / 1000) };
        }),
      ),
  },
]);
