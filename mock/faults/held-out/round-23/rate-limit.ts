// The limiter and its headers: the bucket's clock read from X-Request-Start (the router's stamp,
// which a client's own header overrides); and the observed rules: an apicache-style memo of GET
// answers mounted before the limiter (a repeat is neither counted nor given fresh headers), and
// Reset computed from Redis TTL read before the window's EXPIRE is set (-1, a second in the past,
// on the first request of a window). Each changes when a request is refused or what a header says;
// everything else is answered as before.
import type { Reply } from '../../../exchange.ts';
import { createRateLimiter } from '../../../rate-limiter.ts';
import { capture } from '../../support/captured.ts';
import { editReplies, MANAGEMENT_ROUTES } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { limiterPerRequest } from '../round-7/support/exchange-limiter.ts';
import { headerOf, withHeader } from '../support/answers.ts';

/** X-Request-Start as Heroku's router writes it (milliseconds) or nginx's "t=<seconds>.<ms>". */
const REQUEST_START = /^(?:t=)?(\d+(?:\.\d+)?)$/;
/** Below this a stamp is taken for seconds, above it for milliseconds. */
const MILLISECONDS_FROM = 1e11;
/** How long the memo keeps an answer ("30 seconds" in its configuration). */
const MEMO_MS = 30_000;
/** What Redis TTL answers for a key that has no expiry yet. */
const TTL_NO_EXPIRY = -1;

export const rateLimitFaults = heldOutFamily([
  {
    id: 'ho23-bucket-clock-from-x-request-start',
    clause: 'redeliver.errors.429',
    level: 'contract',
    bug: "The bucket refilled by the request's start time, read from X-Request-Start (the router stamps it for queue-time metrics, but keeps a header the client already sent): with the bucket spent, a redelivery sent with X-Request-Start an hour ahead is redelivered (202) instead of 429; one with a stamp in the past, or none, is still refused 429.",
    install: (app) =>
      limiterPerRequest(app, (limiter, built) => {
        let stamp: number | undefined;
        const clocked = createRateLimiter(limiter.config, { now: () => stamp ?? built.clock!.now() });
        return (counted) => {
          const raw = counted?.exchange.headers['x-request-start'];
          const read = typeof raw === 'string' ? REQUEST_START.exec(raw.trim()) : null;
          const value = read ? Number(read[1]) : NaN;
          stamp = Number.isFinite(value) ? (value < MILLISECONDS_FROM ? value * 1000 : value) : undefined;
          try {
            return clocked.take();
          } finally {
            stamp = undefined;
          }
        };
      }),
  },
  {
    id: 'ho23-get-memo-before-limiter',
    clause: 'rate-limit.remaining.falls',
    level: 'observed',
    bug: `An apicache-style memo of GET answers ("${MEMO_MS / 1000} seconds", keyed by URL and Authorization) mounted before the rate limiter: a repeated read of the same connection is answered from the memo, not counted and with the X-RateLimit headers of the first answer, so Remaining stays where it was (4, 4, 4 with a bucket of 5, instead of 4, 3, 2); a read of another connection is counted as before.`,
    install: (app) => {
      const clock = capture(app, 'clock');
      const memo = new Map<string, { reply: Reply; at: number }>();
      app.wrapRoute('vault', (next) => async (exchange) => {
        if (exchange.method !== 'GET') return next(exchange);
        const key = `${exchange.path}\n${exchange.headers.authorization ?? ''}`;
        const hit = memo.get(key);
        if (hit && clock().now() - hit.at < MEMO_MS) return hit.reply;
        const reply = await next(exchange);
        if (reply.status === 200) memo.set(key, { reply, at: clock().now() });
        return reply;
      });
    },
  },
  {
    id: 'ho23-reset-from-ttl-before-expire',
    clause: 'rate-limit.reset.unix-seconds',
    level: 'observed',
    bug: 'A Redis window counter whose pipeline runs INCR, TTL, then EXPIRE, Reset being now + TTL: on the first request of a window (the bucket full before it) TTL answers -1, the key having no expiry yet, and X-RateLimit-Reset is a second before the answer instead of a time not in the past; the later requests of the window carry a Reset ahead as before.',
    install: (app) => {
      const clock = capture(app, 'clock');
      editReplies(app, MANAGEMENT_ROUTES, (reply) => {
        const limit = Number(headerOf(reply, 'x-ratelimit-limit'));
        const remaining = Number(headerOf(reply, 'x-ratelimit-remaining'));
        if (!Number.isInteger(limit) || remaining !== limit - 1 || headerOf(reply, 'x-ratelimit-reset') === undefined) return reply;
        return withHeader(reply, 'X-RateLimit-Reset', String(Math.floor(clock().now() / 1000) + TTL_NO_EXPIRY));
      });
    },
  },
]);
