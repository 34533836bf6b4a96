// State and errors: ASP.NET Core's rate-limiting middleware, whose RateLimiterOptions.RejectionStatusCode
// defaults to 503 Service Unavailable. Which requests are refused is as before.
import { editReplies, MANAGEMENT_ROUTES, withStatus } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';

export const stateAndErrorFaults = heldOutFamily([
  {
    id: 'ho35-429-aspnet-rejection-status-503',
    clause: 'redeliver.errors.429',
    level: 'contract',
    bug: 'An ASP.NET Core service on Microsoft.AspNetCore.RateLimiting (AddRateLimiter with a TokenBucketRateLimiter) whose options never set RejectionStatusCode, and its default is StatusCodes.Status503ServiceUnavailable: a request over the limit is answered 503 "Service Unavailable" instead of 429 (the OnRejected callback still writes the rate-limit headers and the body); requests within the limit are answered as before.',
    install: (app) => editReplies(app, MANAGEMENT_ROUTES, (reply) => (reply.status === 429 ? withStatus(reply, 503) : reply)),
  },
]);
