// The limiter and its headers: a bucket kept per worker process behind a round-robin balancer, and
// buckets keyed by the Host header as sent; and the observed rules:
// Remaining given as a percentage, and Reset taken from getUTCSeconds(). Each changes one count or
// one header; everything else is answered as before.
import { observed } from '../../../../specs/index.ts';
import { createRateLimiter, type RateLimiter } from '../../../rate-limiter.ts';
import type { Reply } from '../../../exchange.ts';
import { MANAGEMENT_ROUTES, editReplies } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { headerOf, withHeader } from '../support/answers.ts';

const NAMES = observed.rate_limit.headers;
/** The worker processes of the slipped cluster, each with a bucket of its own. */
const WORKERS = 2;

/** The reply with header `name` rewritten by `edit` where it holds a whole number. */
function editNumberHeader(reply: Reply, name: string, edit: (value: number) => string): Reply {
  const value = headerOf(reply, name);
  return value !== undefined && /^\d+$/.test(value) ? withHeader(reply, name, edit(Number(value))) : reply;
}

export const rateLimitFaults = heldOutFamily([
  {
    id: 'ho10-bucket-per-worker',
    clause: 'redeliver.errors.429',
    level: 'contract',
    bug: `The bucket kept in each worker's memory while the service runs ${WORKERS} workers behind a round-robin balancer: requests alternate between ${WORKERS} buckets, so the request after the bucket's size is answered instead of 429, and only the one after twice its size is refused.`,
    install: (app) =>
      app.override('limiter', (limiter, built) => {
        const workers = Array.from({ length: WORKERS }, () => createRateLimiter(limiter.config, built.clock!));
        let turn = 0;
        return {
          config: limiter.config,
          take: () => {
            turn = (turn + 1) % WORKERS;
            return workers[turn]!.take();
          },
        };
      }),
  },
  {
    id: 'ho10-bucket-keyed-by-raw-host',
    clause: 'redeliver.errors.429',
    level: 'contract',
    bug: 'The tenant\'s bucket looked up under the Host header as sent (the key of a multi-tenant limiter, never normalised): once a burst has emptied the bucket, a request whose Host is the same name in other letter case ("LOCALHOST" for "localhost") is answered instead of 429, from a fresh bucket of its own; the same request with the Host as before is still refused.',
    install: (app) => {
      /** The Host of the request being let in, as sent. */
      let host = '';
      app.override('limiter', (limiter, built) => {
        const buckets = new Map<string, RateLimiter>();
        return {
          config: limiter.config,
          take: () => {
            if (!buckets.has(host)) buckets.set(host, buckets.size === 0 ? limiter : createRateLimiter(limiter.config, built.clock!));
            return buckets.get(host)!.take();
          },
        };
      });
      for (const key of MANAGEMENT_ROUTES)
        app.wrapRoute(key, (next) => (exchange) => {
          host = exchange.headers.host ?? '';
          return next(exchange);
        });
    },
  },
  {
    id: 'ho10-remaining-as-percentage',
    clause: 'rate-limit.headers.consistent',
    level: 'observed',
    bug: `${NAMES.remaining} computed by the helper the dashboard's gauge uses, Math.round(remaining / limit * 100), a percentage where a count of requests was meant: with a bucket of 10, the first answer says ${NAMES.remaining}: 90 (more than ${NAMES.limit}: 10) instead of 9; ${NAMES.limit} and ${NAMES.reset} are as before.`,
    install: (app) =>
      editReplies(app, MANAGEMENT_ROUTES, (reply) => {
        const limit = Number(headerOf(reply, NAMES.limit));
        return limit > 0 ? editNumberHeader(reply, NAMES.remaining, (remaining) => String(Math.round((remaining / limit) * 100))) : reply;
      }),
  },
  {
    id: 'ho10-reset-from-get-seconds',
    clause: 'rate-limit.reset.unix-seconds',
    level: 'observed',
    bug: `${NAMES.reset} written as new Date(resetMs).getUTCSeconds(), the seconds field of the time (0 to 59) where the Unix time in seconds was meant: it reads, say, "37" instead of 1735689637; ${NAMES.limit} and ${NAMES.remaining} are as before.`,
    install: (app) =>
      editReplies(app, MANAGEMENT_ROUTES, (reply) =>
        editNumberHeader(reply, NAMES.reset, (reset) => String(new Date(reset * 1000).getUTCSeconds())),
      ),
  },
]);
