// The limiter's headers: Reset written by an Express app on rate-limiter-flexible as the date the
// next point comes back, new Date(Date.now() + res.msBeforeNext).toISOString(), where the header
// is a Unix time in seconds. It changes what the header says; when requests are refused is as before.
import { observed } from '../../../../specs/index.ts';
import { editReplies, MANAGEMENT_ROUTES } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { headerOf, withHeader } from '../support/answers.ts';

const RESET = observed.rate_limit.headers.reset;

export const rateLimitFaults = heldOutFamily([
  {
    id: 'ho33-reset-rate-limiter-flexible-iso-date',
    clause: 'rate-limit.reset.unix-seconds',
    level: 'observed',
    bug: `An Express app on rate-limiter-flexible that sets ${RESET} to new Date(Date.now() + rateLimiterRes.msBeforeNext).toISOString(), the form its logs use: every answer's ${RESET} is an ISO 8601 date-time ("2024-10-01T08:30:01.000Z") instead of a Unix time in seconds; Limit, Remaining and when requests are refused are as before.`,
    install: (app) =>
      editReplies(app, MANAGEMENT_ROUTES, (reply) => {
        const value = headerOf(reply, RESET);
        const seconds = value === undefined ? Number.NaN : Number(value);
        return Number.isFinite(seconds) ? withHeader(reply, RESET, new Date(seconds * 1000).toISOString()) : reply;
      }),
  },
]);
