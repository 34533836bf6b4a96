// The limiter and its headers: a GCRA limiter (the algorithm of redis-cell) whose theoretical
// arrival time is stored in whole seconds, so that an emission interval under a second never moves
// it; and the observed rule: Remaining written with Python's str() of a token bucket's float level
// ("4.0", "2.5", and "0.5" on a 429). Each changes when a request is refused or what a header says;
// everything else is answered as before.
import { observed } from '../../../../specs/index.ts';
import type { Clock } from '../../../clock.ts';
import type { RateLimitConfig, RateLimiter } from '../../../rate-limiter.ts';
import { editReplies, MANAGEMENT_ROUTES } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { headerOf, withHeader } from '../support/answers.ts';

const REMAINING = observed.rate_limit.headers.remaining;

/**
 * GCRA over the bucket's numbers: an emission interval of 1 / refill seconds, a burst of the bucket
 * size, and the theoretical arrival time (TAT) kept, as in the Redis hash it lived in, in whole
 * seconds (Math.floor of the new TAT), which loses any interval shorter than a second.
 */
function wholeSecondGcra(config: RateLimitConfig, clock: Clock): RateLimiter {
  const interval = 1000 / config.refillPerSecond;
  const tolerance = interval * (config.bucketSize - 1);
  let tatSeconds = 0;
  return {
    config,
    take() {
      const now = clock.now();
      const tat = Math.max(tatSeconds * 1000, now);
      const allowed = tat - now <= tolerance;
      if (allowed) tatSeconds = Math.floor((tat + interval) / 1000);
      const stored = allowed ? Math.max(tatSeconds * 1000, now) : tat;
      const ahead = stored - now;
      const remaining = Math.min(config.bucketSize, Math.max(0, Math.floor((tolerance - ahead) / interval) + 1));
      const next = now + (ahead > 0 ? ahead % interval || interval : interval);
      return { allowed, limit: config.bucketSize, remaining, resetSeconds: Math.ceil(next / 1000) };
    },
  };
}

/** A token bucket kept as a Python float, as a hand-written limiter (self.tokens) keeps it; Remaining is its level. */
function floatBucket(config: RateLimitConfig, clock: Clock): RateLimiter {
  let tokens = config.bucketSize;
  let updatedAt = clock.now();
  return {
    config,
    take() {
      const now = clock.now();
      if (now > updatedAt) tokens = Math.min(config.bucketSize, tokens + ((now - updatedAt) / 1000) * config.refillPerSecond);
      updatedAt = now;
      const allowed = tokens >= 1;
      if (allowed) tokens -= 1;
      const msToNext = ((1 - (tokens % 1)) / config.refillPerSecond) * 1000;
      return { allowed, limit: config.bucketSize, remaining: tokens, resetSeconds: Math.ceil((now + msToNext) / 1000) };
    },
  };
}

export const rateLimitFaults = heldOutFamily([
  {
    id: 'ho24-gcra-tat-whole-seconds',
    clause: 'redeliver.errors.429',
    level: 'contract',
    bug: "A GCRA limiter (the algorithm of redis-cell and Go's throttled) whose theoretical arrival time is kept in a Redis hash as whole seconds (HSET ... tat math.floor(new_tat)): with the tenant's refill faster than one request a second the emission interval is under a second, the stored time never moves, and a flood of redeliveries is served (202) without end instead of 429 once the burst is spent; with a refill of one a second or slower the bucket is still enforced.",
    install: (app) => app.override('limiter', (limiter, built) => wholeSecondGcra(limiter.config, built.clock!)),
  },
  {
    id: 'ho24-remaining-python-float',
    clause: 'rate-limit.headers.consistent',
    level: 'observed',
    bug: `A token bucket written in Python, self.tokens a float refilled by elapsed * rate, and ${REMAINING} written as str(self.tokens): a full bucket of 5 answers "4.0", then "3.0", and after half a second at one a second "2.5", instead of the whole requests left (4, 3, 2); a 429 says "0.5" where Remaining is 0 on a 429. Limit and Reset are as before.`,
    install: (app) => {
      app.override('limiter', (limiter, built) => floatBucket(limiter.config, built.clock!));
      editReplies(app, MANAGEMENT_ROUTES, (reply) => {
        const remaining = headerOf(reply, REMAINING);
        return remaining !== undefined && /^\d+$/.test(remaining) ? withHeader(reply, REMAINING, `${remaining}.0`) : reply;
      });
    },
  },
]);
