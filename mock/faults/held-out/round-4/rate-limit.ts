// The rate limiter and its X-RateLimit headers: the fallback routes' 429 written without them, a
// repeated redelivery served from an idempotency cache in front of the limiter, a refused request
// that still takes its token, and a Reset counted from the bucket's last refill. Each changes one
// thing; the rest is answered as before.
import { observed } from '../../../../specs/index.ts';
import type { Reply } from '../../../exchange.ts';
import { capture } from '../../support/captured.ts';
import { editReplies, withoutHeaders } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { slippedBucket } from './support/bucket.ts';

const TOO_MANY_REQUESTS = 429;
const ACCEPTED = observed.operations.redeliver.success.status;
const RATE_LIMIT_HEADERS = Object.values(observed.rate_limit.headers);
/** How long a redelivery is answered again from the idempotency cache. */
const REPLAY_MS = 10 * 60 * 1000;
/** Replies kept, oldest dropped first. */
const REPLIES_KEPT = 10_000;

export const rateLimitFaults = heldOutFamily([
  {
    id: 'ho4-fallback-429-without-headers',
    clause: 'rate-limit.429.headers',
    level: 'contract',
    bug: "The not-found and method-not-allowed handlers sit behind the limiter but outside the middleware that writes its headers: when the bucket is empty, a request to an unknown path under the interface is answered 429 without X-RateLimit-Limit, -Remaining or -Reset; the operations' 429s still carry them.",
    install: (app) =>
      editReplies(app, ['not-found', 'method-not-allowed'], (reply) =>
        reply.status === TOO_MANY_REQUESTS ? withoutHeaders(reply, RATE_LIMIT_HEADERS) : reply,
      ),
  },
  {
    id: 'ho4-redelivery-replayed-before-limiter',
    clause: 'redeliver.errors.429',
    level: 'contract',
    bug: `An idempotency layer in front of the limiter replays, for ${REPLAY_MS / 60_000} minutes, the answer to a redelivery the same credential already made: with the bucket empty, that repeat is answered 202 (with the headers of the first answer) instead of 429, and takes no token; a redelivery not made before is still refused with 429.`,
    install(app) {
      const clock = capture(app, 'clock');
      const replies = new Map<string, { reply: Reply; at: number }>();
      app.wrapRoute('redeliver', (next) => async (exchange) => {
        const key = `${exchange.headers.authorization ?? ''}\n${exchange.path}`;
        const now = clock().now();
        const earlier = replies.get(key);
        if (earlier && now - earlier.at < REPLAY_MS) return earlier.reply;
        const reply = await next(exchange);
        if (reply.status === ACCEPTED) {
          if (replies.size >= REPLIES_KEPT) replies.delete(replies.keys().next().value!);
          replies.set(key, { reply, at: now });
        }
        return reply;
      });
    },
  },
  {
    id: 'ho4-refused-request-takes-a-token',
    clause: 'rate-limit.headers.consistent',
    level: 'observed',
    bug: 'The bucket decremented before it is checked, so a refused request takes its token too and the bucket goes below empty: a 429 says X-RateLimit-Reset is when the next request is added, yet a request made then is refused again (the refill only brought the bucket back to empty); a client that waits out every Reset is refused for ever while it retries.',
    install: (app) => app.override('limiter', (limiter, built) => slippedBucket(limiter.config, built.clock!, { refusalCosts: true })),
  },
  {
    id: 'ho4-reset-from-last-refill',
    clause: 'rate-limit.reset.unix-seconds',
    level: 'observed',
    bug: "X-RateLimit-Reset counted from the bucket's last refill (the previous request) instead of from now: after a pause, an answer says requests are next added at a time already past (a minute ago, after a minute's pause).",
    install: (app) =>
      app.override('limiter', (limiter, built) => slippedBucket(limiter.config, built.clock!, { resetFromLastRefill: true })),
  },
]);
