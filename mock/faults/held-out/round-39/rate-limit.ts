// The limiter's headers on particular answers: Kong's anonymous consumer with a limit of its own on
// 401s; a 429 built from rate-limiter-flexible's msBeforeNext; and a fallback limiter without
// headers for requests that fail authentication. When requests are refused is as before.
import { observed } from '../../../../specs/index.ts';
import { captureAll } from '../../support/captured.ts';
import { editReplies, MANAGEMENT_ROUTES, withoutHeaders } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { headerOf, withHeader } from '../support/answers.ts';

const { limit: LIMIT, remaining: REMAINING, reset: RESET } = observed.rate_limit.headers;
const UNAUTHORIZED = 401;
const TOO_MANY = 429;
/** The anonymous consumer's own limit. */
const ANONYMOUS_LIMIT = 10;

export const rateLimitFaults = heldOutFamily([
  {
    id: 'ho39-limit-kong-anonymous-consumer-on-401',
    clause: 'rate-limit.limit.constant',
    level: 'observed',
    bug: `A Kong gateway whose key-auth/jwt plugin maps a request it cannot authenticate to the "anonymous" consumer, and whose rate-limiting plugin is configured per consumer with minute: ${ANONYMOUS_LIMIT} for anonymous: a 401 (no token, or a bad one) carries ${LIMIT} ${ANONYMOUS_LIMIT} and the anonymous consumer's Remaining, while the answers before and after it to the tenant's clients carry the tenant's bucket size; answers to authenticated requests, successes and refusals alike, are as before.`,
    install: (app) => {
      let anonymousUsed = 0;
      editReplies(app, MANAGEMENT_ROUTES, (reply) => {
        if (reply.status !== UNAUTHORIZED || headerOf(reply, LIMIT) === undefined) return reply;
        anonymousUsed += 1;
        return withHeader(
          withHeader(reply, LIMIT, String(ANONYMOUS_LIMIT)),
          REMAINING,
          String(Math.max(0, ANONYMOUS_LIMIT - anonymousUsed)),
        );
      });
    },
  },
  {
    id: 'ho39-reset-429-from-ms-before-next',
    clause: 'rate-limit.reset.unix-seconds',
    level: 'observed',
    bug: `A Node service on rate-limiter-flexible whose success path writes ${RESET} from the limiter's own seconds, and whose 429, written in the catch of consume(), sets ${RESET} to String(Date.now() + rejection.msBeforeNext) (the RateLimiterRes of a rejection): on a 429 ${RESET} is a Unix time in milliseconds (13 digits) instead of seconds; on successes and other refusals it is as before.`,
    install: (app) =>
      editReplies(app, MANAGEMENT_ROUTES, (reply) => {
        const reset = Number(headerOf(reply, RESET));
        return reply.status === TOO_MANY && Number.isInteger(reset) ? withHeader(reply, RESET, String(reset * 1000)) : reply;
      }),
  },
  {
    id: 'ho39-429-unauthenticated-fallback-limiter-headerless',
    clause: 'rate-limit.429.headers',
    level: 'contract',
    bug: `An Express service with two express-rate-limit instances sharing the tenant's store: one keyed by the verified client (standardHeaders: true), and a fallback for requests whose token does not verify, copied from an older file with standardHeaders and legacyHeaders false: a 429 to a request without a valid token carries none of ${LIMIT}, ${REMAINING} and ${RESET}; a 429 to a request with a valid token carries them, and so does a 401 answered before the bucket is spent.`,
    install: (app) => {
      const components = captureAll(app);
      editReplies(app, MANAGEMENT_ROUTES, async (reply, exchange) => {
        if (reply.status !== TOO_MANY) return reply;
        const verification = await components().verifier.verify(exchange.headers.authorization, exchange.headers.host);
        return verification.ok ? reply : withoutHeaders(reply, [LIMIT, REMAINING, RESET]);
      });
    },
  },
]);
