// The limiter and its headers: a refill measured from when the bucket was made, a bucket that
// starts empty, and Reset computed from a clock in the server's local time. Each changes one count
// or one header; everything else is answered as before.
import { observed } from '../../../../specs/index.ts';
import type { Quota, RateLimiter } from '../../../rate-limiter.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { slippedBucket } from './support/slipped-bucket.ts';

const NAMES = observed.rate_limit.headers;
/** The offset the slip subtracts: getTimezoneOffset() of a server in New York in winter, in seconds. */
const LOCAL_OFFSET_SECONDS = 5 * 3600;

/** The limiter with each quota it reports changed by `edit`. */
function reporting(limiter: RateLimiter, edit: (quota: Quota) => Quota): RateLimiter {
  return { config: limiter.config, take: () => edit(limiter.take()) };
}

export const rateLimitFaults = heldOutFamily([
  {
    id: 'ho8-refill-measured-from-start',
    clause: 'redeliver.errors.429',
    level: 'contract',
    bug: "The bucket refilled by the time since it was made, a start timestamp never moved on, instead of the time since the last request: once a bucket has lived longer than it takes to fill, every request finds it full again, and a burst is never answered 429; a burst in the bucket's first moments is still refused.",
    install: (app) => app.override('limiter', (limiter, built) => slippedBucket(limiter.config, built.clock!, { refillFromStart: true })),
  },
  {
    id: 'ho8-bucket-starts-empty',
    clause: 'redeliver.success.202',
    level: 'contract',
    bug: "The bucket's counter initialised to 0 instead of to its size, so it starts empty and fills at its refill rate: the first redelivery after the service starts is answered 429 instead of 202; once a token has been added, redeliveries are answered as before.",
    install: (app) => app.override('limiter', (limiter, built) => slippedBucket(limiter.config, built.clock!, { startsEmpty: true })),
  },
  {
    id: 'ho8-reset-in-local-time',
    clause: 'rate-limit.reset.unix-seconds',
    level: 'observed',
    bug: `${NAMES.reset} computed from a "now" corrected by the server's time-zone offset (Date.now() - getTimezoneOffset() minutes, on a server in New York): every answer's Reset is ${LOCAL_OFFSET_SECONDS / 3600} hours in the past instead of the Unix time in seconds when the next request is added; Limit and Remaining are unchanged.`,
    install: (app) =>
      app.override('limiter', (limiter) =>
        reporting(limiter, (quota) => ({ ...quota, resetSeconds: quota.resetSeconds - LOCAL_OFFSET_SECONDS })),
      ),
  },
]);
