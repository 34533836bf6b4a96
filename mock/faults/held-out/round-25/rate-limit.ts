// The limiter and its headers: express-rate-limit set up with standardHeaders: 'draft-6' and
// legacyHeaders: false (the IETF draft's RateLimit-* fields in place of X-RateLimit-*); and the
// observed rule: the headers added by a Flask after_request hook of the blueprint the older routes
// live in, which the ticket route's blueprint does not share. Each changes what a header says or
// whether it is there; when requests are refused is as before.
import { observed } from '../../../../specs/index.ts';
import { capture } from '../../support/captured.ts';
import { editReplies, editSuccessReplies, MANAGEMENT_ROUTES, withoutHeaders } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { headerOf } from '../support/answers.ts';

const NAMES = observed.rate_limit.headers;
const LEGACY = [NAMES.limit, NAMES.remaining, NAMES.reset];

export const rateLimitFaults = heldOutFamily([
  {
    id: 'ho25-ratelimit-draft-6-headers',
    clause: 'rate-limit.429.headers',
    level: 'contract',
    bug: "The limiter moved to express-rate-limit with standardHeaders: 'draft-6' and legacyHeaders: false (the settings its documentation recommends): every answer, a 429 among them, carries RateLimit-Limit, RateLimit-Remaining and RateLimit-Reset (the seconds until the next request, as the draft has it) instead of X-RateLimit-Limit, X-RateLimit-Remaining and X-RateLimit-Reset; when a request is refused is as before.",
    install: (app) => {
      const clock = capture(app, 'clock');
      editReplies(app, MANAGEMENT_ROUTES, (reply) => {
        const limit = headerOf(reply, NAMES.limit);
        const remaining = headerOf(reply, NAMES.remaining);
        const reset = headerOf(reply, NAMES.reset);
        if (limit === undefined || remaining === undefined || reset === undefined) return reply;
        const stripped = withoutHeaders(reply, LEGACY);
        const seconds = Math.max(0, Number(reset) - Math.floor(clock().now() / 1000));
        return {
          ...stripped,
          headers: { ...stripped.headers, 'RateLimit-Limit': limit, 'RateLimit-Remaining': remaining, 'RateLimit-Reset': String(seconds) },
        };
      });
    },
  },
  {
    id: 'ho25-ticket-headers-hook-other-blueprint',
    clause: 'rate-limit.headers.on-success',
    level: 'observed',
    bug: `The ${LEGACY.join(', ')} headers written by an after_request hook registered on the Flask blueprint of the older routes (event streams, flows), not on the app, and the ticket route living in the self-service blueprint: ticket creation's 201 carries none of the three (its 429s, answered by the limiter's own error handler, still do); the redelivery's and the vault read's answers are as before.`,
    install: (app) => editSuccessReplies(app, 'sso-ticket', (reply) => withoutHeaders(reply, LEGACY)),
  },
]);
