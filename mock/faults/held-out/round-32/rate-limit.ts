// The limiter's headers: written by IBM API Connect's rate-limit policy in its own value syntax, and
// Reset written by a MuleSoft rate-limiting policy as the milliseconds left. Both observed rules;
// when requests are refused is as before.
import { observed } from '../../../../specs/index.ts';
import type { Reply } from '../../../exchange.ts';
import { capture } from '../../support/captured.ts';
import { editReplies, MANAGEMENT_ROUTES } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { headerOf, withHeader } from '../support/answers.ts';

const NAMES = observed.rate_limit.headers;
/** The name API Connect gives the plan's rate limit in its headers. */
const PLAN_LIMIT = 'rate-limit';

/** Each X-RateLimit header's value written as "name=<limit name>,<value>;". */
function apicSyntax(reply: Reply): Reply {
  let edited = reply;
  for (const name of [NAMES.limit, NAMES.remaining, NAMES.reset]) {
    const value = headerOf(edited, name);
    if (value !== undefined && /^\d+$/.test(value)) edited = withHeader(edited, name, `name=${PLAN_LIMIT},${value};`);
  }
  return edited;
}

export const rateLimitFaults = heldOutFamily([
  {
    id: 'ho32-ratelimit-apic-named-values',
    clause: 'rate-limit.headers.consistent',
    level: 'observed',
    bug: `An API published through IBM API Connect, whose plan's rate-limit policy writes its headers in the gateway's own form, "name=<limit name>,<value>;": every answer carries ${NAMES.limit}: name=${PLAN_LIMIT},2; and the like instead of bare numbers (Remaining and Reset alike); the numbers, and when requests are refused, are as before.`,
    install: (app) => editReplies(app, MANAGEMENT_ROUTES, apicSyntax),
  },
  {
    id: 'ho32-reset-mulesoft-millis-left',
    clause: 'rate-limit.reset.unix-seconds',
    level: 'observed',
    bug: `A MuleSoft API whose rate-limiting policy writes ${NAMES.reset} as its own x-ratelimit-reset, the milliseconds left until requests are next added, where the service writes a Unix time in seconds: Reset is a small number such as 1000 (ms from now) instead of a time not in the past; Limit, Remaining and when requests are refused are as before.`,
    install: (app) => {
      const clock = capture(app, 'clock');
      editReplies(app, MANAGEMENT_ROUTES, (reply) => {
        const reset = headerOf(reply, NAMES.reset);
        if (reset === undefined || !/^\d+$/.test(reset)) return reply;
        return withHeader(reply, NAMES.reset, String(Math.max(0, Number(reset) * 1000 - clock().now())));
      });
    },
  },
]);
