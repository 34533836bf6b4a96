// The limiter and its headers: a 429 whose Remaining header is spelled as another library spells
// it, a bucket whose refill is not capped at its size; and the observed rules: Reset written in
// milliseconds, and Limit written as the refill rate. Each changes when a request is refused or
// what a header says; everything else is answered as before.
import type { Clock } from '../../../clock.ts';
import type { Quota, RateLimitConfig, RateLimiter } from '../../../rate-limiter.ts';
import { capture } from '../../support/captured.ts';
import { editReplies, MANAGEMENT_ROUTES } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';

const RESET = 'x-ratelimit-reset';
const REMAINING = 'x-ratelimit-remaining';
const LIMIT = 'x-ratelimit-limit';
const headerName = (headers: Record<string, string>, name: string) => Object.keys(headers).find((header) => header.toLowerCase() === name);
const TOKEN = 1000;

/** A token bucket that adds tokens for every idle millisecond, never capped at its size. */
function uncappedLimiter(config: RateLimitConfig, clock: Clock): RateLimiter {
  let units = config.bucketSize * TOKEN;
  let updatedAt = clock.now();
  const quota = (allowed: boolean, now: number): Quota => ({
    allowed,
    limit: config.bucketSize,
    remaining: Math.max(0, Math.min(config.bucketSize, Math.floor(units / TOKEN))),
    resetSeconds: Math.ceil((now + (TOKEN - (units % TOKEN)) / config.refillPerSecond) / 1000),
  });
  return {
    config,
    take() {
      const now = clock.now();
      if (now > updatedAt) units += (now - updatedAt) * config.refillPerSecond;
      updatedAt = now;
      if (units < TOKEN) return quota(false, now);
      units -= TOKEN;
      return quota(true, now);
    },
  };
}

export const rateLimitFaults = heldOutFamily([
  {
    id: 'ho19-429-remaining-bucket4j-name',
    clause: 'rate-limit.429.headers',
    level: 'contract',
    bug: "The 429 written by a second filter (bucket4j's) that spells the header X-Rate-Limit-Remaining: a refused request carries X-RateLimit-Limit and -Reset but its remaining count under the other name, so X-RateLimit-Remaining is missing; admitted requests carry all three as before.",
    install: (app) =>
      editReplies(app, MANAGEMENT_ROUTES, (reply) => {
        const name = headerName(reply.headers, REMAINING);
        if (reply.status !== 429 || name === undefined) return reply;
        const { [name]: value, ...rest } = reply.headers;
        return { ...reply, headers: { ...rest, 'X-Rate-Limit-Remaining': value! } };
      }),
  },
  {
    id: 'ho19-refill-uncapped-after-idle',
    clause: 'redeliver.errors.429',
    level: 'contract',
    bug: 'The bucket refilled without Math.min(capacity, ...) (the cap left out of a hand-written limiter): after a client has been idle it may send more than the bucket size in a burst instead of 429; a client that was not idle is limited as before.',
    install: (app) => app.override('limiter', (limiter, built) => uncappedLimiter(limiter.config, built.clock!)),
  },
  {
    id: 'ho19-reset-in-milliseconds',
    clause: 'rate-limit.reset.unix-seconds',
    level: 'observed',
    bug: 'X-RateLimit-Reset written from Date.now() arithmetic without the division by 1000: a Unix time in milliseconds (13 digits) instead of seconds; Limit and Remaining are as before.',
    install: (app) =>
      editReplies(app, MANAGEMENT_ROUTES, (reply) => {
        const name = headerName(reply.headers, RESET);
        return name === undefined ? reply : { ...reply, headers: { ...reply.headers, [name]: String(Number(reply.headers[name]) * 1000) } };
      }),
  },
  {
    id: 'ho19-limit-header-refill-rate',
    clause: 'rate-limit.limit.constant',
    level: 'observed',
    bug: 'X-RateLimit-Limit written from the limiter\'s rate setting (requests per second) instead of the bucket size: a bucket of 2 refilled at 0.001 a second answers "0.001"; Remaining and Reset are as before.',
    install: (app) => {
      const limiter = capture(app, 'limiter');
      editReplies(app, MANAGEMENT_ROUTES, (reply) => {
        const name = headerName(reply.headers, LIMIT);
        return name === undefined ? reply : { ...reply, headers: { ...reply.headers, [name]: String(limiter().config.refillPerSecond) } };
      });
    },
  },
]);
