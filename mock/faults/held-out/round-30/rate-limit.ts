// The limiter's headers: a gateway built on Spring Cloud Gateway's RedisRateLimiter, which writes
// its own set of headers; and the observed rule: a gin engine whose limiter is middleware of the
// /api/v2 group, which a 405 never passes through. Each changes which headers an answer carries;
// when requests are refused is as before.
import { observed } from '../../../../specs/index.ts';
import type { Reply } from '../../../exchange.ts';
import { capture } from '../../support/captured.ts';
import { editReplies, MANAGEMENT_ROUTES, withoutHeaders } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { headerOf } from '../support/answers.ts';

const NAMES = observed.rate_limit.headers;
const LEGACY = [NAMES.limit, NAMES.remaining, NAMES.reset];
/** RedisRateLimiter's header names (its defaults). */
const BURST = 'X-RateLimit-Burst-Capacity';
const REPLENISH = 'X-RateLimit-Replenish-Rate';
const REQUESTED = 'X-RateLimit-Requested-Tokens';

export const rateLimitFaults = heldOutFamily([
  {
    id: 'ho30-429-spring-cloud-gateway-headers',
    clause: 'rate-limit.429.headers',
    level: 'contract',
    bug: `A Spring Cloud Gateway in front of the service whose RequestRateLimiter filter uses RedisRateLimiter, with the service's own headers turned off, and RedisRateLimiter writes ${NAMES.remaining}, ${BURST}, ${REPLENISH} and ${REQUESTED}: a 429 (and every other answer) carries ${NAMES.remaining} and the bucket size as ${BURST} and none of ${NAMES.limit} or ${NAMES.reset}; when requests are refused is as before.`,
    install: (app) => {
      const limiter = capture(app, 'limiter');
      editReplies(app, MANAGEMENT_ROUTES, (reply: Reply) => {
        const limit = headerOf(reply, NAMES.limit);
        if (limit === undefined) return reply;
        const trimmed = withoutHeaders(reply, [NAMES.limit, NAMES.reset]);
        return {
          ...trimmed,
          headers: {
            ...trimmed.headers,
            [BURST]: limit,
            [REPLENISH]: String(limiter().config.refillPerSecond),
            [REQUESTED]: '1',
          },
        };
      });
    },
  },
  {
    id: 'ho30-405-gin-no-method-without-headers',
    clause: 'rate-limit.headers.consistent',
    level: 'observed',
    bug: `A gin engine with HandleMethodNotAllowed = true whose limiter is middleware of the /api/v2 RouterGroup (api.Use(rateLimit)), and gin answers a 405 through engine.NoMethod, which runs only the engine's global middleware: a 405 (a PUT or DELETE of an operation's path) carries none of ${LEGACY.join(', ')}, though the request still took a token; the other answers carry them as before.`,
    install: (app) => editReplies(app, ['method-not-allowed'], (reply) => withoutHeaders(reply, LEGACY)),
  },
]);
