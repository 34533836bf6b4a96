// A 429 written by a separate "too many requests" handler that forgets one header the spec
// requires on it: X-RateLimit-Reset. Other answers keep all three.
import type { Fault } from './fault.ts';
import { RATE_LIMIT_HEADER, TOO_MANY_REQUESTS } from './support/rate-limit-headers.ts';
import { editReplies, MANAGEMENT_ROUTES, withoutHeaders } from './support/route-edits.ts';

export const tooManyRequestsWithoutXRateLimitReset: Fault = {
  id: '429-without-x-ratelimit-reset',
  clause: 'rate-limit.429.headers',
  description: 'A 429 carries no X-RateLimit-Reset header (the other two are there).',
  install(app) {
    editReplies(app, MANAGEMENT_ROUTES, (reply) => (reply.status === TOO_MANY_REQUESTS ? withoutHeaders(reply, [RATE_LIMIT_HEADER.reset]) : reply));
  },
};
