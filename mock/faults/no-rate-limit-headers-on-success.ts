// The X-RateLimit headers added only by the 429 handler: successful answers carry none. Every
// observed test that reads the headers off a successful answer fails with it.
import type { Fault } from './fault.ts';
import { RATE_LIMIT_HEADER } from './support/rate-limit-headers.ts';
import { editReplies, MANAGEMENT_ROUTES, withoutHeaders } from './support/route-edits.ts';

const SUCCESS_BELOW = 300;

export const noRateLimitHeadersOnSuccess: Fault = {
  id: 'no-rate-limit-headers-on-success',
  clause: 'rate-limit.headers.on-success',
  description: 'Successful answers carry no X-RateLimit headers (429s still do), so the headers cannot be read off a success.',
  install(app) {
    const names = [RATE_LIMIT_HEADER.limit, RATE_LIMIT_HEADER.remaining, RATE_LIMIT_HEADER.reset];
    editReplies(app, MANAGEMENT_ROUTES, (reply) => (reply.status < SUCCESS_BELOW ? withoutHeaders(reply, names) : reply));
  },
};
