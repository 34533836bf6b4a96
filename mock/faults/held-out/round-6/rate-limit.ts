// The limiter and its headers: a 429 that describes the limit in the IETF draft's RateLimit header
// instead, a Reset counted on a monotonic clock, tokens given back for requests that ended in an error, and a Limit in the bucket's
// internal units, and the middleware's default 429 message. Each changes one header or one count; everything else is answered as before.
import { observed } from '../../../../specs/index.ts';
import type { Quota, RateLimiter } from '../../../rate-limiter.ts';
import { capture } from '../../support/captured.ts';
import { editReplies, isErrorBody, MANAGEMENT_ROUTES, withoutHeaders } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { headerOf } from '../support/answers.ts';
import { refundingBucket, type RefundingBucket } from './support/bucket.ts';

const NAMES = observed.rate_limit.headers;
const TOO_MANY = 429;
/** One request in the bucket's units (token-milliseconds per second), as rate-limiter.ts counts. */
const UNITS_PER_REQUEST = 1000;
/** express-rate-limit's default message. */
const LIBRARY_MESSAGE = 'Too many requests, please try again later.';

/** The limiter with each quota it reports changed by `edit`. */
function reporting(limiter: RateLimiter, edit: (quota: Quota) => Quota): RateLimiter {
  return { config: limiter.config, take: () => edit(limiter.take()) };
}

export const rateLimitFaults = heldOutFamily([
  {
    id: 'ho6-429-in-draft-ratelimit-header',
    clause: 'rate-limit.429.headers',
    level: 'contract',
    bug: `The 429 written by a middleware that follows the IETF draft's single RateLimit header ("limit=L, remaining=0, reset=S"): a 429 carries RateLimit and RateLimit-Policy instead of ${NAMES.limit}, ${NAMES.remaining} and ${NAMES.reset}; other answers still carry the three X-RateLimit headers.`,
    install: (app) => {
      const clock = capture(app, 'clock');
      editReplies(app, MANAGEMENT_ROUTES, (reply) => {
        if (reply.status !== TOO_MANY) return reply;
        const limit = headerOf(reply, NAMES.limit) ?? '0';
        const reset = Number(headerOf(reply, NAMES.reset) ?? '0');
        const seconds = Math.max(0, reset - Math.floor(clock().now() / 1000));
        const stripped = withoutHeaders(reply, [NAMES.limit, NAMES.remaining, NAMES.reset]);
        return {
          ...stripped,
          headers: { ...stripped.headers, ratelimit: `limit=${limit}, remaining=0, reset=${seconds}`, 'ratelimit-policy': `${limit};w=1` },
        };
      });
    },
  },
  {
    id: 'ho6-reset-on-monotonic-clock',
    clause: 'rate-limit.reset.unix-seconds',
    level: 'observed',
    bug: `${NAMES.reset} computed on performance.now() (seconds since the process started) where Date.now() was meant: every answer says Reset of a few seconds, a time in 1970, instead of the Unix time in seconds of the next refill; Limit and Remaining are unchanged.`,
    install: (app) =>
      app.override('limiter', (limiter, built) => {
        const startedSeconds = Math.floor(built.clock!.now() / 1000);
        return reporting(limiter, (quota) => ({ ...quota, resetSeconds: quota.resetSeconds - startedSeconds }));
      }),
  },
  {
    id: 'ho6-errors-refund-their-token',
    clause: 'rate-limit.remaining.falls',
    level: 'observed',
    bug: 'The limiter gives the token back for requests that end in an error (meant to spare clients their own mistakes): requests refused 401, 403, 400 or 404 cost nothing, so Remaining does not fall across them and a caller without a valid token is never limited; successful requests still cost a token.',
    install: (app) => {
      app.override('limiter', (limiter, built) => refundingBucket(limiter.config, built.clock!));
      const limiter = capture(app, 'limiter');
      editReplies(app, MANAGEMENT_ROUTES, (reply) => {
        if (reply.status >= 400 && reply.status !== TOO_MANY) (limiter() as RefundingBucket).refund();
        return reply;
      });
    },
  },
  {
    id: 'ho6-limit-in-bucket-units',
    clause: 'rate-limit.limit.constant',
    level: 'observed',
    bug: `${NAMES.limit} written from the bucket's capacity in its internal units (thousandths of a request) instead of in requests: every answer says Limit ${UNITS_PER_REQUEST} times the bucket size; Remaining and Reset are unchanged.`,
    install: (app) =>
      app.override('limiter', (limiter) => reporting(limiter, (quota) => ({ ...quota, limit: quota.limit * UNITS_PER_REQUEST }))),
  },
  {
    id: 'ho6-429-message-from-library-default',
    clause: 'errors.429.body',
    level: 'observed',
    bug: `The limiter middleware's own default message left in place of the service's: every 429 of the management interface says "${LIBRARY_MESSAGE}" instead of "Global limit has been reached"; its status, error and errorCode are unchanged.`,
    install: (app) =>
      editReplies(app, MANAGEMENT_ROUTES, (reply) =>
        reply.status === TOO_MANY && isErrorBody(reply.body) ? { ...reply, body: { ...reply.body, message: LIBRARY_MESSAGE } } : reply,
      ),
  },
]);
