// The limiter and its headers: Kong's rate-limiting plugin attached to routes matched by regular
// expressions over the raw path (a percent-encoded id matches none and falls to the catch-all route
// without the plugin), a circuit breaker that answers 429s of its own without the headers once two
// come in a row; and the observed rules: Envoy retrying 409s (retriable-4xx), which the bucket
// counts twice, and Reset written on the 1900 epoch of NTP and of a mainframe's time-of-day clock.
// Each changes when a request is refused or what a header says; everything else is answered as
// before.
import type { Quota } from '../../../rate-limiter.ts';
import { capture } from '../../support/captured.ts';
import { editReplies, MANAGEMENT_ROUTES } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { limiterPerRequest } from '../round-7/support/exchange-limiter.ts';

const RESET = 'x-ratelimit-reset';
const headerName = (headers: Record<string, string>, name: string) => Object.keys(headers).find((header) => header.toLowerCase() === name);
/** A percent-encoded octet in a path as sent. */
const ENCODED = /%[0-9A-Fa-f]{2}/;
/** Seconds from 1900-01-01 (NTP's and the TOD clock's epoch) to 1970-01-01. */
const EPOCH_1900_OFFSET = 2_208_988_800;
/** The breaker opens after this many 429s in a row, and stays open this long. */
const FAILURES_TO_OPEN = 2;
const OPEN_MS = 5_000;

export const rateLimitFaults = heldOutFamily([
  {
    id: 'ho22-encoded-ids-skip-kong-limiter',
    clause: 'redeliver.errors.429',
    level: 'contract',
    bug: 'Kong\'s rate-limiting plugin attached to the operations\' routes, whose paths are regular expressions over the raw path (ids as [1-9A-HJ-NP-Za-km-z]{22}), while a catch-all route without the plugin forwards the rest: a redelivery whose event id has a letter percent-encoded (%77 for "w") matches no limited route and is redelivered (202) with the bucket empty instead of 429; the same redelivery written plainly is refused 429.',
    install: (app) =>
      limiterPerRequest(app, (limiter) => {
        let last: Quota | undefined;
        return (counted) => {
          if (last && counted && ENCODED.test(counted.exchange.path)) return { ...last, allowed: true };
          last = limiter.take();
          return last;
        };
      }),
  },
  {
    id: 'ho22-breaker-429-without-headers',
    clause: 'rate-limit.429.headers',
    level: 'contract',
    bug: "A Resilience4j-style circuit breaker in front of the API that records 429s as failures, opens after two in a row and, while open (5 s), answers the service's 429 body itself, without the limiter's headers: the third 429 of a burst has no X-RateLimit-Limit, -Remaining or -Reset; the first two carry them.",
    install: (app) => {
      const clock = capture(app, 'clock');
      const errors = capture(app, 'errors');
      let inARow = 0;
      let openUntil = 0;
      for (const key of MANAGEMENT_ROUTES) {
        app.wrapRoute(key, (next) => async (exchange) => {
          if (clock().now() < openUntil) return errors().reply('too_many_requests');
          const reply = await next(exchange);
          inARow = reply.status === 429 ? inARow + 1 : 0;
          if (inARow >= FAILURES_TO_OPEN) {
            openUntil = clock().now() + OPEN_MS;
            inARow = 0;
          }
          return reply;
        });
      }
    },
  },
  {
    id: 'ho22-conflict-retried-by-envoy',
    clause: 'rate-limit.remaining.falls',
    level: 'observed',
    bug: 'Envoy in front of the service with retry_on: retriable-4xx, which retries a 409 once, and the limiter counting the retry: a redelivery refused 409 costs two requests, so X-RateLimit-Remaining falls by 2 (with a bucket of 4 it reads 2 on the 409 and 1 on the next answer, instead of 3 and 2); answers other than 409 cost one as before.',
    install: (app) => {
      for (const key of MANAGEMENT_ROUTES) {
        app.wrapRoute(key, (next) => async (exchange) => {
          const reply = await next(exchange);
          return reply.status === 409 ? next(exchange) : reply;
        });
      }
    },
  },
  {
    id: 'ho22-reset-on-1900-epoch',
    clause: 'rate-limit.reset.unix-seconds',
    level: 'observed',
    bug: "X-RateLimit-Reset computed by a gateway that keeps time as NTP does (and a mainframe's TOD clock), in seconds since 1900-01-01: Reset is 2208988800 more than the Unix time (about 3940000000) instead of a Unix time within a minute of the answer; Limit and Remaining are as before.",
    install: (app) =>
      editReplies(app, MANAGEMENT_ROUTES, (reply) => {
        const name = headerName(reply.headers, RESET);
        const seconds = name === undefined ? NaN : Number(reply.headers[name]);
        if (name === undefined || !Number.isInteger(seconds)) return reply;
        return { ...reply, headers: { ...reply.headers, [name]: String(seconds + EPOCH_1900_OFFSET) } };
      }),
  },
]);
