// The limiter: a Django view behind django-ratelimit, whose Ratelimited is a PermissionDenied;
// and the observed rules: a Phoenix plug on Hammer writing the count check_rate answers as the
// Remaining, and Laravel's ThrottleRequests, which writes the Reset only with a retry-after. When
// requests are refused is as before.
import { observed } from '../../../../specs/index.ts';
import { editReplies, MANAGEMENT_ROUTES, withoutHeaders, withStatus } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { headerOf, withHeader } from '../support/answers.ts';

const { limit: LIMIT, remaining: REMAINING, reset: RESET } = observed.rate_limit.headers;

export const rateLimitFaults = heldOutFamily([
  {
    id: 'ho36-429-django-ratelimit-permission-denied',
    clause: 'redeliver.errors.429',
    level: 'contract',
    bug: "A Django service limited with django-ratelimit's @ratelimit(key=..., rate=..., block=True), whose Ratelimited exception is a subclass of PermissionDenied and is answered 403 unless RATELIMIT_VIEW is set: a request past the limit is refused 403 Forbidden instead of 429 (the limiter's headers and message as before); requests within the limit are answered as before.",
    install: (app) => editReplies(app, MANAGEMENT_ROUTES, (reply) => (reply.status === 429 ? withStatus(reply, 403) : reply)),
  },
  {
    id: 'ho36-remaining-phoenix-hammer-count',
    clause: 'rate-limit.remaining.falls',
    level: 'observed',
    bug: `A Phoenix plug on Hammer that writes {:allow, count} = Hammer.check_rate(key, scale, limit) into ${REMAINING}, and count is the number of requests made in the bucket so far, not the number left: on a full bucket of 5 the first answer's ${REMAINING} is 1, then 2, 3 (it rises); ${LIMIT}, ${RESET} and the 429 are as before.`,
    install: (app) =>
      editReplies(app, MANAGEMENT_ROUTES, (reply) => {
        const remaining = Number(headerOf(reply, REMAINING));
        const limit = Number(headerOf(reply, LIMIT));
        if (reply.status === 429 || !Number.isInteger(remaining) || !Number.isInteger(limit)) return reply;
        return withHeader(reply, REMAINING, String(limit - remaining));
      }),
  },
  {
    id: 'ho36-reset-laravel-throttle-only-on-429',
    clause: 'rate-limit.headers.on-success',
    level: 'observed',
    bug: `A Laravel service behind the ThrottleRequests middleware, whose getHeaders() adds ${RESET} (and Retry-After) only when it is given a retry-after, that is on the 429: successful answers (and the other errors) carry ${LIMIT} and ${REMAINING} but no ${RESET}; the 429 carries all three.`,
    install: (app) => editReplies(app, MANAGEMENT_ROUTES, (reply) => (reply.status === 429 ? reply : withoutHeaders(reply, [RESET]))),
  },
]);
