// The limiter's headers, the observed rule: AspNetCoreRateLimit (the middleware Ocelot's limiting
// grew from), which writes the rule's Period as the limit header. When requests are refused is as
// before.
import { observed } from '../../../../specs/index.ts';
import { editReplies, MANAGEMENT_ROUTES } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { headerOf, withHeader } from '../support/answers.ts';

const { limit: LIMIT } = observed.rate_limit.headers;

export const rateLimitFaults = heldOutFamily([
  {
    id: 'ho35-limit-aspnetcoreratelimit-period',
    clause: 'rate-limit.limit.constant',
    level: 'observed',
    bug: `An ASP.NET Core service on AspNetCoreRateLimit (IpRateLimitMiddleware, one general rule "*" with Period "1s"), renamed to the ${LIMIT} spelling, and the middleware writes headers.Limit = rule.Period: ${LIMIT} is "1s" on every answer instead of the bucket size; Remaining and Reset are as before.`,
    install: (app) =>
      editReplies(app, MANAGEMENT_ROUTES, (reply) => (headerOf(reply, LIMIT) === undefined ? reply : withHeader(reply, LIMIT, '1s'))),
  },
]);
