// The rate limit and its headers (spec 7, 8 and the observed header facts): a limiter that never
// refuses, and X-RateLimit headers written wrong, missing, or in other units. Header values are
// changed in the quota the limiter reports, after it has decided, so the limiting itself holds.
import { observed } from '../../specs/index.ts';
import type { IncomingHttpHeaders } from 'node:http';
import type { FaultHooks } from '../app.ts';
import type { Reply } from '../exchange.ts';
import type { RouteKey } from '../exchange.ts';
import { createRateLimiter, type Quota, type RateLimitConfig, type RateLimiter } from '../rate-limiter.ts';
import { faultFamily } from './fault.ts';
import { editReplies, MANAGEMENT_ROUTES, withoutHeaders } from './support/route-edits.ts';

const HEADER = observed.rate_limit.headers;
/** The three X-RateLimit headers. */
const RATE_LIMIT_HEADERS = [HEADER.limit, HEADER.remaining, HEADER.reset];
const TOO_MANY_REQUESTS = observed.errors.too_many_requests!.status;
const SUCCESS_BELOW = 300;
const MS_PER_SECOND = 1000;

/** The share of the bucket a limiter's gauge keeps back for the service's own jobs. */
const RESERVED_SHARE = 0.2;
/** An hourly quota window, in seconds. */
const HOUR_SECONDS = 3600;

/** Changes what the limiter reports for each request (the X-RateLimit header values); `config` is the limiter's. */
function editQuota(app: FaultHooks, edit: (quota: Quota, config: RateLimitConfig) => Quota): void {
  app.override('limiter', (limiter) => ({
    config: limiter.config,
    take() {
      return edit(limiter.take(), limiter.config);
    },
  }));
}

/** Changes each 429 of the management interface, as a separate "too many requests" handler would. */
function editTooManyRequests(app: FaultHooks, edit: (reply: Reply) => Reply): void {
  editReplies(app, MANAGEMENT_ROUTES, (reply) => (reply.status === TOO_MANY_REQUESTS ? edit(reply) : reply));
}

/** Addresses a load balancer's own health checks and sidecars come from. */
const PRIVATE_ADDRESS = /^(10\.|127\.|192\.168\.)/;

/**
 * A limiter that lets through the requests `exempt` picks, whatever the bucket holds: the route
 * wrapper decides before the limiter is asked (it runs outside the limiter, and the limiter's
 * take() is synchronous within it).
 */
function exemptFromLimit(
  app: FaultHooks,
  exempt: (exchange: { headers: IncomingHttpHeaders; path: string; query: string }) => boolean,
): void {
  let exempting = false;
  app.override('limiter', (limiter) => ({
    config: limiter.config,
    take() {
      const quota = limiter.take();
      return exempting ? { ...quota, allowed: true } : quota;
    },
  }));
  for (const key of MANAGEMENT_ROUTES) {
    app.wrapRoute(key, (next) => (exchange) => {
      exempting = exempt(exchange);
      try {
        return next(exchange);
      } finally {
        exempting = false;
      }
    });
  }
}

export const rateLimitFaults = faultFamily([
  {
    id: 'never-limits',
    clause: 'redeliver.errors.429',
    bug: 'A limiter that always allows and always reports a full bucket: too many requests never get 429.',
    install: (app) =>
      app.override('limiter', (limiter, { clock }) => ({
        config: limiter.config,
        take() {
          const nowSeconds = Math.ceil((clock?.now() ?? Date.now()) / 1000);
          return { allowed: true, limit: limiter.config.bucketSize, remaining: limiter.config.bucketSize, resetSeconds: nowSeconds };
        },
      })),
  },
  {
    id: 'private-real-ip-exempt-from-limit',
    clause: 'redeliver.errors.429',
    bug: "An allow-list for the load balancer's health checks read from X-Real-IP, which a client may set itself: with the bucket spent, a request that says X-Real-IP: 10.0.0.1 is served instead of 429; without the header it is refused.",
    install: (app) =>
      exemptFromLimit(app, ({ headers }) => {
        const claimed = headers['x-real-ip'];
        return typeof claimed === 'string' && PRIVATE_ADDRESS.test(claimed.trim());
      }),
  },
  {
    id: 'tenant-limiter-found-by-host-as-sent',
    clause: 'redeliver.errors.429',
    bug: 'The tenant\'s limiter looked up in a table keyed by its host name in lower case, with the Host header as sent, and a request whose limiter is not found let through (fail open, so a limiter\'s outage never takes the service down): with the bucket spent, a request whose Host has a capital letter ("Tenant.example.com") is served instead of 429; with the Host in lower case it is refused.',
    install: (app) =>
      exemptFromLimit(app, ({ headers }) => {
        const host = headers.host ?? '';
        return host !== host.toLowerCase();
      }),
  },
  {
    id: 'limiter-path-pattern-misses-query',
    clause: 'redeliver.errors.429',
    bug: 'The limiter mounted on a path pattern anchored at its end ("^/api/v2/.*[^?]*$" tested against the URL as sent, query included, where the router tests the path alone): a request with any query string is routed but never reaches the limiter, so with the bucket spent it is served instead of 429; a request without a query is refused as before.',
    install: (app) => exemptFromLimit(app, (exchange) => exchange.query !== ''),
  },
  {
    id: 'limiter-route-pattern-misses-encoded-ids',
    clause: 'redeliver.errors.429',
    bug: 'The limiter attached to the operations\' routes, matched by regular expressions over the raw path (ids of letters, digits and "_"), while a catch-all route without it forwards the rest: a redelivery whose event id has a letter percent-encoded matches no limited route and is served instead of 429 with the bucket spent; the same id written plainly is refused as before.',
    install: (app) => exemptFromLimit(app, (exchange) => /%[0-9A-Fa-f]{2}/.test(exchange.path)),
  },
  {
    id: 'bucket-rebuilt-by-token-requests',
    clause: 'redeliver.errors.429',
    bug: "The tenant's limiter looked up through a cache that the token endpoint invalidates on every request it takes (meant to pick up a changed subscription when a client signs in): after any token request the bucket is built again, full, so a client that spent its bucket and asked for a token is served instead of 429; without a token request it is refused as before.",
    install: (app) => {
      let rebuild: (() => RateLimiter) | undefined;
      let current: RateLimiter | undefined;
      app.override('limiter', (limiter, built) => {
        rebuild = () => createRateLimiter(limiter.config, built.clock!);
        current = limiter;
        return { config: limiter.config, take: () => current!.take() };
      });
      app.wrapRoute('token', (next) => (exchange) => {
        if (rebuild) current = rebuild();
        return next(exchange);
      });
    },
  },
  {
    id: 'idempotency-keyed-requests-not-counted',
    clause: 'redeliver.errors.429',
    bug: 'An idempotency middleware in front of the limiter that takes every request carrying an Idempotency-Key header for a retry already counted (it checks the header is there, not that its key was seen): with the bucket spent, such requests are served instead of 429; requests without the header are limited as before.',
    install: (app) => exemptFromLimit(app, (exchange) => exchange.headers['idempotency-key'] !== undefined),
  },
  {
    id: 'limiter-counts-an-instant-once',
    clause: 'redeliver.errors.429',
    bug: 'A limiter that logs requests by their arrival time and counts one entry per millisecond (a set keyed by the timestamp): requests that arrive in the same millisecond as one already admitted are admitted with it, taking no token, so a burst sent at once after a refill is served nearly whole instead of 429; requests a millisecond apart are limited as before.',
    install: (app) =>
      app.override('limiter', (limiter, built) => {
        let admitted: { at: number; quota: Quota } | undefined;
        return {
          config: limiter.config,
          take() {
            const now = built.clock!.now();
            if (admitted?.at === now) return admitted.quota;
            const quota = limiter.take();
            admitted = quota.allowed ? { at: now, quota } : undefined;
            return quota;
          },
        };
      }),
  },
  {
    id: 'refill-timer-started-twice',
    clause: 'redeliver.errors.429',
    bug: 'The refill timer started twice (once when the limiter module is loaded, again when the server starts), each adding the whole rate: the bucket refills at twice its rate, so requests paced over a few refill intervals after a 429 are served twice as often as the bucket allows; a short burst right after the 429 is still refused.',
    install: (app) =>
      app.override('limiter', (limiter, built) => {
        const doubled = createRateLimiter({ ...limiter.config, refillPerSecond: limiter.config.refillPerSecond * 2 }, built.clock!);
        return { config: limiter.config, take: () => doubled.take() };
      }),
  },
  {
    id: 'limiter-memoised-for-the-last-operation',
    clause: 'redeliver.errors.429',
    bug: 'The limiter looked up per operation through memoize-one (limiterFor(operation), meant to spare a map lookup per request), which keeps only the result for the last argument: a request to another operation than the one before it builds a new, full bucket, so a redelivery sent after a vault read is served even with the bucket spent; redeliveries sent one after another still meet 429.',
    install: (app) => {
      let operation: RouteKey | undefined;
      app.override('limiter', (limiter, built) => {
        let memo: { for: RouteKey | undefined; limiter: RateLimiter } | undefined;
        return {
          config: limiter.config,
          take() {
            const kept =
              memo !== undefined && memo.for === operation
                ? memo
                : { for: operation, limiter: createRateLimiter(limiter.config, built.clock!) };
            memo = kept;
            return kept.limiter.take();
          },
        };
      });
      for (const key of MANAGEMENT_ROUTES) {
        app.wrapRoute(key, (next) => (exchange) => {
          operation = key;
          return next(exchange);
        });
      }
    },
  },
  {
    id: 'reads-and-writes-limited-apart',
    clause: 'rate-limit.remaining.falls',
    bug: 'Two limiters, a rate-limit middleware mounted once on the router of reads (GET) and once on that of writes, where the tenant has one bucket: with the bucket spent by redeliveries, a vault read is served from a full bucket of its own and says Remaining nearly the whole Limit; redeliveries and ticket requests still share one bucket and meet 429.',
    install: (app) => {
      let read = false;
      app.override('limiter', (limiter, built) => {
        const reads = createRateLimiter(limiter.config, built.clock!);
        return { config: limiter.config, take: () => (read ? reads.take() : limiter.take()) };
      });
      for (const key of MANAGEMENT_ROUTES) {
        app.wrapRoute(key, (next) => (exchange) => {
          read = exchange.method === 'GET';
          return next(exchange);
        });
      }
    },
  },
  {
    id: '429-remaining-rounded-to-nearest',
    clause: 'rate-limit.headers.consistent',
    bug: "A 429 handler of its own that writes Remaining from the bucket's level rounded to the nearest request (Math.round) where successes round it down: a 429 met with half a token or more refilled says X-RateLimit-Remaining 1; a 429 met with less, and every success, as before.",
    install: (app) =>
      app.override('limiter', (limiter, built) => {
        // The bucket's level in requests, kept beside the limiter's own (which decides).
        let level = limiter.config.bucketSize;
        let at = built.clock!.now();
        return {
          config: limiter.config,
          take() {
            const now = built.clock!.now();
            level = Math.min(limiter.config.bucketSize, level + (Math.max(0, now - at) * limiter.config.refillPerSecond) / MS_PER_SECOND);
            at = now;
            const quota = limiter.take();
            if (quota.allowed) level = Math.max(0, level - 1);
            return quota.allowed ? quota : { ...quota, remaining: Math.round(level) };
          },
        };
      }),
  },
  {
    id: '429-without-x-ratelimit-limit',
    clause: 'rate-limit.429.headers',
    bug: 'A separate "too many requests" handler that forgets a header: a 429 carries no X-RateLimit-Limit (the other two are there).',
    install: (app) => editTooManyRequests(app, (reply) => withoutHeaders(reply, [HEADER.limit])),
  },
  {
    id: '429-without-x-ratelimit-remaining',
    clause: 'rate-limit.429.headers',
    bug: 'A separate "too many requests" handler that forgets a header: a 429 carries no X-RateLimit-Remaining (the other two are there).',
    install: (app) => editTooManyRequests(app, (reply) => withoutHeaders(reply, [HEADER.remaining])),
  },
  {
    id: '429-without-x-ratelimit-reset',
    clause: 'rate-limit.429.headers',
    bug: 'A separate "too many requests" handler that forgets a header: a 429 carries no X-RateLimit-Reset (the other two are there).',
    install: (app) => editTooManyRequests(app, (reply) => withoutHeaders(reply, [HEADER.reset])),
  },
  {
    id: '429-reset-as-http-date',
    clause: 'rate-limit.429.headers',
    bug: 'A 429 that writes its reset time the way Retry-After may be written: X-RateLimit-Reset is an HTTP date instead of an integer.',
    install: (app) =>
      editTooManyRequests(app, (reply) => {
        const seconds = Number(reply.headers[HEADER.reset]);
        return { ...reply, headers: { ...reply.headers, [HEADER.reset]: new Date(seconds * MS_PER_SECOND).toUTCString() } };
      }),
  },
  {
    id: 'no-rate-limit-headers-on-success',
    clause: 'rate-limit.headers.on-success',
    bug: 'X-RateLimit headers added only by the 429 handler: successful answers carry none, so the headers cannot be read off a success (429s still have them).',
    install: (app) =>
      editReplies(app, MANAGEMENT_ROUTES, (reply) => (reply.status < SUCCESS_BELOW ? withoutHeaders(reply, RATE_LIMIT_HEADERS) : reply)),
  },
  {
    id: 'reset-in-milliseconds',
    clause: 'rate-limit.reset.unix-seconds',
    bug: 'A Reset written from a millisecond clock without dividing by 1000: X-RateLimit-Reset is a Unix time in milliseconds instead of seconds.',
    install: (app) => editQuota(app, (quota) => ({ ...quota, resetSeconds: quota.resetSeconds * MS_PER_SECOND })),
  },
  {
    id: 'remaining-goes-negative',
    clause: 'rate-limit.remaining.falls',
    bug: 'The request subtracted once more after the limiter counted it: X-RateLimit-Remaining is one less than the requests left, so it reads -1 once the bucket is empty.',
    install: (app) => editQuota(app, (quota) => ({ ...quota, remaining: quota.remaining - 1 })),
  },
  {
    id: 'remaining-never-falls',
    clause: 'rate-limit.remaining.falls',
    bug: 'Remaining written from the configuration instead of the bucket: X-RateLimit-Remaining always equals X-RateLimit-Limit, so it never falls as requests are made (the limiter still refuses).',
    install: (app) => editQuota(app, (quota) => ({ ...quota, remaining: quota.limit })),
  },
  {
    id: 'limit-header-counts-down',
    clause: 'rate-limit.limit.constant',
    bug: 'Two headers written from the same variable: X-RateLimit-Limit shows the requests left (falling with each request) instead of the constant bucket size.',
    install: (app) => editQuota(app, (quota) => ({ ...quota, limit: quota.remaining })),
  },
  {
    id: 'no-rate-limit-headers-on-refusals',
    clause: 'rate-limit.headers.consistent',
    bug: 'Refusals (400, 401, 403, 404, 409) answered by an error handler that does not go through the code adding X-RateLimit headers: they carry none (successes and 429s still do).',
    install: (app) =>
      editReplies(app, MANAGEMENT_ROUTES, (reply) =>
        reply.status >= 400 && reply.status !== TOO_MANY_REQUESTS ? withoutHeaders(reply, RATE_LIMIT_HEADERS) : reply,
      ),
  },
  {
    id: 'remaining-less-the-reserve',
    clause: 'rate-limit.headers.consistent',
    bug: "A limiter that keeps a fifth of the bucket back for the service's own jobs in its gauge only: X-RateLimit-Remaining says what is left less a fifth of the Limit (at least 0), so it reads 0 while that fifth is still served to clients (Limit and Reset as before, 0 on a 429).",
    install: (app) =>
      editQuota(app, (quota) => ({ ...quota, remaining: Math.max(0, quota.remaining - Math.ceil(quota.limit * RESERVED_SHARE)) })),
  },
  {
    id: 'limit-header-one-over-the-bucket',
    clause: 'rate-limit.limit.constant',
    bug: "X-RateLimit-Limit written from the limiter's capacity, which counts the request in flight as one more slot (capacity = bucket + 1): it says one more than the bucket's size on every answer; Remaining and Reset are as before, and Limit stays constant.",
    install: (app) => editQuota(app, (quota) => ({ ...quota, limit: quota.limit + 1 })),
  },
  {
    id: 'limit-header-is-the-refill-rate',
    clause: 'rate-limit.headers.consistent',
    bug: 'X-RateLimit-Limit written from the refill rate (requests per second) instead of the bucket size: Remaining reads above Limit while the bucket holds more than a second of refill (Limit still constant).',
    install: (app) => editQuota(app, (quota, config) => ({ ...quota, limit: config.refillPerSecond })),
  },
  {
    id: 'reset-at-the-end-of-the-hour',
    clause: 'rate-limit.headers.consistent',
    bug: 'A Reset taken from an hourly quota window (opened by the first request the service counted) instead of the per-second bucket: X-RateLimit-Reset is up to an hour ahead of the answer.',
    install(app) {
      // The window opens at the first request, not on the hour: a window on the clock's hour would
      // end seconds after a run that starts just before it, and the fault would hide by the time of day.
      let windowEnd: number | undefined;
      editQuota(app, (quota) => {
        windowEnd ??= quota.resetSeconds + HOUR_SECONDS;
        while (windowEnd <= quota.resetSeconds) windowEnd += HOUR_SECONDS;
        return { ...quota, resetSeconds: windowEnd };
      });
    },
  },
]);
