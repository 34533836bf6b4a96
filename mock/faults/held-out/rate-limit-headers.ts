// The X-RateLimit headers and the 429: a Reset written as a delay, a Limit written twice by two
// layers, a 429 whose headers were filled in by a handler that does not know the bucket, and an
// empty bucket answered with another status. Each changes one header or one status; the limiter
// itself counts as before.
import { observed } from '../../../specs/index.ts';
import { capture } from '../support/captured.ts';
import { editReplies, MANAGEMENT_ROUTES, withStatus } from '../support/route-edits.ts';
import { heldOutFamily } from './held-out-fault.ts';
import { headerOf, withHeader } from './support/answers.ts';

const names = observed.rate_limit.headers;
const TOO_MANY_REQUESTS = 429;
/** What an overload handler in front of a service answers. */
const SERVICE_UNAVAILABLE = 503;
/** What a handler writes for a time it does not know. */
const UNKNOWN_TIME = '0';

export const rateLimitHeaderFaults = heldOutFamily([
  {
    id: 'ho-reset-as-seconds-to-wait',
    clause: 'rate-limit.reset.unix-seconds',
    level: 'observed',
    bug: 'X-RateLimit-Reset written the way Retry-After is, as the seconds to wait (0 or 1 with a bucket refilled every second) instead of the Unix time in seconds at which requests are next added.',
    install(app) {
      const clock = capture(app, 'clock');
      editReplies(app, MANAGEMENT_ROUTES, (reply) => {
        const reset = headerOf(reply, names.reset);
        if (reset === undefined) return reply;
        const wait = Math.max(0, Number(reset) - Math.floor(clock().now() / 1000));
        return withHeader(reply, names.reset, String(wait));
      });
    },
  },
  {
    id: 'ho-limit-header-written-twice',
    clause: 'rate-limit.headers.consistent',
    level: 'observed',
    bug: 'A gateway and the service both add X-RateLimit-Limit, so the two values arrive joined ("200, 200") on every answer the service writes; the gateway\'s own 429s carry one value.',
    install: (app) =>
      editReplies(app, MANAGEMENT_ROUTES, (reply) => {
        const limit = headerOf(reply, names.limit);
        return limit === undefined || reply.status === TOO_MANY_REQUESTS ? reply : withHeader(reply, names.limit, `${limit}, ${limit}`);
      }),
  },
  {
    id: 'ho-429-reset-zero',
    clause: 'rate-limit.reset.unix-seconds',
    level: 'observed',
    bug: `A 429 written by a handler that does not know when the bucket refills: its X-RateLimit-Reset is "${UNKNOWN_TIME}" (1970) while every other answer carries the real Reset.`,
    install: (app) =>
      editReplies(app, MANAGEMENT_ROUTES, (reply) =>
        reply.status === TOO_MANY_REQUESTS ? withHeader(reply, names.reset, UNKNOWN_TIME) : reply,
      ),
  },
  {
    id: 'ho-429-remaining-from-configuration',
    clause: 'rate-limit.headers.consistent',
    level: 'observed',
    bug: 'A 429 whose X-RateLimit-Remaining is filled in from the configuration like its Limit: an empty bucket is answered with Remaining equal to Limit instead of 0 (other answers count down as before).',
    install: (app) =>
      editReplies(app, MANAGEMENT_ROUTES, (reply) => {
        const limit = headerOf(reply, names.limit);
        return reply.status === TOO_MANY_REQUESTS && limit !== undefined ? withHeader(reply, names.remaining, limit) : reply;
      }),
  },
  {
    id: 'ho-empty-bucket-answered-503',
    clause: 'redeliver.errors.429',
    level: 'contract',
    bug: `An overload handler in front of the service answers an empty bucket with ${SERVICE_UNAVAILABLE} Service Unavailable instead of 429 (the X-RateLimit headers and the message stay; requests are still refused).`,
    install: (app) =>
      editReplies(app, MANAGEMENT_ROUTES, (reply) => (reply.status === TOO_MANY_REQUESTS ? withStatus(reply, SERVICE_UNAVAILABLE) : reply)),
  },
]);
