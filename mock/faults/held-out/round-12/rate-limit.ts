// The limiter and its headers: a refill counted in whole seconds while its reference time moves
// on, and the service's own dashboard let past the limiter by its User-Agent; and the observed
// rules: Reset worked out from the process's uptime, Limit halved after a 429 by an adaptive
// throttle, Remaining counted in a fixed one-second window, and Limit written in a quota policy's
// syntax. Each changes one count or one header; everything else is answered as before.
import type { Quota, RateLimiter } from '../../../rate-limiter.ts';
import { capture } from '../../support/captured.ts';
import { MANAGEMENT_ROUTES, editReplies } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { headerOf, withHeader } from '../support/answers.ts';

const LIMIT_HEADER = 'X-RateLimit-Limit';
/** The User-Agent of the service's own dashboard, which an allow-list lets past the limiter. */
const DASHBOARD_AGENT = /^Dashboard\//;

export const rateLimitFaults = heldOutFamily([
  {
    id: 'ho12-refill-fraction-lost',
    clause: 'redeliver.errors.429',
    level: 'contract',
    bug: 'The bucket refilled by Math.floor(elapsedMs / 1000) * refillPerSecond tokens and its last-refill time then set to now, so the part of a second since the last request is thrown away: requests closer together than a second never refill it, and with a bucket of 3 refilled at 2 a second, requests 600 ms apart (well under the rate) are answered 429 from the fourth on instead of never; requests a whole second apart are refilled as before.',
    install: (app) =>
      app.override('limiter', (limiter, built): RateLimiter => {
        const clock = built.clock!;
        const { bucketSize, refillPerSecond } = limiter.config;
        let tokens = bucketSize;
        let updatedAt = clock.now();
        return {
          config: limiter.config,
          take(): Quota {
            const now = clock.now();
            if (now > updatedAt) tokens = Math.min(bucketSize, tokens + Math.floor((now - updatedAt) / 1000) * refillPerSecond);
            updatedAt = now;
            const allowed = tokens >= 1;
            if (allowed) tokens -= 1;
            return { allowed, limit: bucketSize, remaining: Math.max(0, Math.floor(tokens)), resetSeconds: Math.floor(now / 1000) + 1 };
          },
        };
      }),
  },
  {
    id: 'ho12-dashboard-agent-exempt',
    clause: 'redeliver.errors.429',
    level: 'contract',
    bug: 'An allow-list in front of the limiter for the service\'s own dashboard, recognised by its User-Agent ("Dashboard/<version>"), which any client can send: requests with User-Agent "Dashboard/2.4" are never answered 429, where a burst past the bucket\'s size must be; the same burst with another User-Agent is still refused.',
    install: (app) => {
      let exempt = false;
      app.override('limiter', (limiter, built) => ({
        config: limiter.config,
        take: (): Quota =>
          exempt
            ? {
                allowed: true,
                limit: limiter.config.bucketSize,
                remaining: limiter.config.bucketSize,
                resetSeconds: Math.ceil(built.clock!.now() / 1000),
              }
            : limiter.take(),
      }));
      for (const key of MANAGEMENT_ROUTES)
        app.wrapRoute(key, (next) => (exchange) => {
          const agent = exchange.headers['user-agent'];
          exempt = typeof agent === 'string' && DASHBOARD_AGENT.test(agent);
          return next(exchange);
        });
    },
  },
  {
    id: 'ho12-reset-from-uptime',
    clause: 'rate-limit.reset.unix-seconds',
    level: 'observed',
    bug: "X-RateLimit-Reset worked out from process.uptime() (the clock the limiter's own timers use) plus the wait for the next token, where the Unix time was meant: Reset is a few seconds or minutes since the process started, a time in 1970, instead of a Unix time not in the past; Limit and Remaining are as before.",
    install: (app) =>
      app.override('limiter', (limiter, built) => ({
        config: limiter.config,
        take: (): Quota => {
          const quota = limiter.take();
          const wait = Math.max(0, quota.resetSeconds - built.clock!.now() / 1000);
          return { ...quota, resetSeconds: Math.ceil(process.uptime() + wait) };
        },
      })),
  },
  {
    id: 'ho12-limit-halved-after-429',
    clause: 'rate-limit.limit.constant',
    level: 'observed',
    bug: 'An adaptive throttle (additive increase, multiplicative decrease) in front of the bucket that halves the limit it advertises each time a request is refused: after the first 429, X-RateLimit-Limit reads half the bucket size (2 of 4) instead of staying the bucket size; the 429s themselves come as before.',
    install: (app) =>
      app.override('limiter', (limiter) => {
        let limit = limiter.config.bucketSize;
        return {
          config: limiter.config,
          take: (): Quota => {
            const quota = limiter.take();
            const answered = { ...quota, limit, remaining: Math.min(quota.remaining, limit) };
            if (!quota.allowed) limit = Math.max(1, Math.floor(limit / 2));
            return answered;
          },
        };
      }),
  },
  {
    id: 'ho12-remaining-fixed-window',
    clause: 'rate-limit.remaining.falls',
    level: 'observed',
    bug: 'X-RateLimit-Remaining worked out by a counter of the requests of the current second (a fixed window, from the metrics middleware) while the bucket decides the 429s: at each new second Remaining starts again from Limit - 1 though the bucket has not refilled (9, 8, 7, then 9 again), instead of going on falling (6); the 429 past the bucket comes as before.',
    install: (app) =>
      app.override('limiter', (limiter, built) => {
        let window = Number.NaN;
        let count = 0;
        return {
          config: limiter.config,
          take: (): Quota => {
            const quota = limiter.take();
            const second = Math.floor(built.clock!.now() / 1000);
            if (second !== window) {
              window = second;
              count = 0;
            }
            count += 1;
            return { ...quota, remaining: quota.allowed ? Math.max(0, quota.limit - count) : 0 };
          },
        };
      }),
  },
  {
    id: 'ho12-limit-in-policy-syntax',
    clause: 'rate-limit.limit.constant',
    level: 'observed',
    bug: 'X-RateLimit-Limit written by a gateway plugin in the quota-policy syntax of the IETF RateLimit draft, "<limit>;w=<window seconds>": Limit is "<size>;w=<size / refill rate>" ("10;w=10000" for a bucket of 10 refilled a token every 1000 s) instead of the bucket size; Remaining and Reset are as before.',
    install: (app) => {
      const limiter = capture(app, 'limiter');
      editReplies(app, MANAGEMENT_ROUTES, (reply) => {
        const limit = headerOf(reply, LIMIT_HEADER);
        if (limit === undefined || !/^\d+$/.test(limit)) return reply;
        const { bucketSize, refillPerSecond } = limiter().config;
        return withHeader(reply, LIMIT_HEADER, `${limit};w=${Math.ceil(bucketSize / refillPerSecond)}`);
      });
    },
  },
]);
