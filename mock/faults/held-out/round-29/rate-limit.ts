// The limiter and its headers: the X-RateLimit headers written by a Rails app's throttle copied
// from a Twitter API client's conventions (X-Rate-Limit-*); and the observed rule: Reset written by
// a Go limiter on golang.org/x/time/rate as the time the bucket is full again. Each changes what a
// header says; when requests are refused is as before.
import { observed } from '../../../../specs/index.ts';
import type { Reply } from '../../../exchange.ts';
import { editReplies, MANAGEMENT_ROUTES } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { headerOf } from '../support/answers.ts';

/** One token, in the units of mock/rate-limiter.ts (token-milliseconds per second). */
const TOKEN = 1000;

const NAMES = observed.rate_limit.headers;
const LEGACY = [NAMES.limit, NAMES.remaining, NAMES.reset];
/** Each X-RateLimit-* name written the way Twitter's API spelled them. */
const twitterName = (name: string) => name.replace(/^X-RateLimit-/i, 'X-Rate-Limit-');

/** The reply with each X-RateLimit header under Twitter's name instead. */
function renamed(reply: Reply): Reply {
  const drop = new Set(LEGACY.map((name) => name.toLowerCase()));
  const headers = Object.fromEntries(Object.entries(reply.headers).filter(([name]) => !drop.has(name.toLowerCase())));
  for (const name of LEGACY) {
    const value = headerOf(reply, name);
    if (value !== undefined) headers[twitterName(name)] = value;
  }
  return { ...reply, headers };
}

export const rateLimitFaults = heldOutFamily([
  {
    id: 'ho29-429-twitter-rate-limit-names',
    clause: 'rate-limit.429.headers',
    level: 'contract',
    bug: `A Rails app whose Rack::Attack throttled_responder (and the after-action that adds the headers to the other answers) was copied from a Twitter API client's conventions, which spell the headers X-Rate-Limit-Limit, X-Rate-Limit-Remaining and X-Rate-Limit-Reset: a 429 (and every other answer) carries the three values under those names and none of ${LEGACY.join(', ')}; the values, and when requests are refused, are as before.`,
    install: (app) => editReplies(app, MANAGEMENT_ROUTES, renamed),
  },
  {
    id: 'ho29-reset-go-rate-when-full',
    clause: 'rate-limit.headers.consistent',
    level: 'observed',
    bug: `A Go limiter on golang.org/x/time/rate that writes ${NAMES.reset} as now + (burst - limiter.Tokens()) / limit, the time the bucket is full again (the figure its dashboard shows), where the header means when requests are next added: once a request leaves less than a whole token short of full, Reset is later than the next token (a bucket of 2 refilled at 1 a second, emptied at once, says 2 s ahead where the next request comes in 1 s); Limit, Remaining and when requests are refused are as before.`,
    install: (app) =>
      app.override('limiter', (limiter, built) => {
        const clock = built.clock!;
        const { bucketSize, refillPerSecond } = limiter.config;
        const capacity = bucketSize * TOKEN;
        let units = capacity;
        let updatedAt = clock.now();
        return {
          config: limiter.config,
          take() {
            const now = clock.now();
            if (now > updatedAt) units = Math.min(capacity, units + (now - updatedAt) * refillPerSecond);
            updatedAt = now;
            const allowed = units >= TOKEN;
            if (allowed) units -= TOKEN;
            return {
              allowed,
              limit: bucketSize,
              remaining: Math.max(0, Math.floor(units / TOKEN)),
              resetSeconds: Math.ceil((now + (capacity - units) / refillPerSecond) / 1000),
            };
          },
        };
      }),
  },
]);
