// The limiter's headers: an Envoy local_ratelimit filter whose reset header counts seconds from now.
// When requests are refused is as before.
import { observed } from '../../../../specs/index.ts';
import { capture } from '../../support/captured.ts';
import { editReplies, MANAGEMENT_ROUTES } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { headerOf, withHeader } from '../support/answers.ts';

const { reset: RESET } = observed.rate_limit.headers;

export const rateLimitFaults = heldOutFamily([
  {
    id: 'ho41-envoy-local-ratelimit-reset-delta',
    clause: 'rate-limit.reset.unix-seconds',
    level: 'observed',
    bug: `An Envoy sidecar whose local_ratelimit filter does the limiting with enable_x_ratelimit_headers: DRAFT_VERSION_03, which writes ${RESET} as the seconds left until the bucket refills (the draft's delta) rather than a Unix time: ${RESET} is a small number of seconds (0, 1, ...) instead of a Unix time in seconds, on successes and 429s alike; Limit and Remaining, and when requests are refused, are as before.`,
    install: (app) => {
      const clock = capture(app, 'clock');
      editReplies(app, MANAGEMENT_ROUTES, (reply) => {
        const reset = Number(headerOf(reply, RESET));
        if (!Number.isInteger(reset)) return reply;
        return withHeader(reply, RESET, String(Math.max(0, reset - Math.floor(clock().now() / 1000))));
      });
    },
  },
]);
