// The limiter's headers: a Spring Cloud Gateway RedisRateLimiter in front of the service, which
// writes its own headers (Remaining, Burst-Capacity, Replenish-Rate, Requested-Tokens) and not
// Limit or Reset. When requests are refused is as before.
import { observed } from '../../../../specs/index.ts';
import type { Reply } from '../../../exchange.ts';
import { capture } from '../../support/captured.ts';
import { editReplies, MANAGEMENT_ROUTES, withoutHeaders } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { headerOf } from '../support/answers.ts';

const NAMES = observed.rate_limit.headers;

export const rateLimitFaults = heldOutFamily([
  {
    id: 'ho31-429-spring-cloud-gateway-headers',
    clause: 'rate-limit.429.headers',
    level: 'contract',
    bug: `A Spring Cloud Gateway whose RequestRateLimiter filter (RedisRateLimiter) answers for the limiter, with its own headers X-RateLimit-Remaining, X-RateLimit-Burst-Capacity, X-RateLimit-Replenish-Rate and X-RateLimit-Requested-Tokens: a 429 (and every other answer) carries Remaining but neither ${NAMES.limit} nor ${NAMES.reset} (the bucket's size is under Burst-Capacity, its refill rate under Replenish-Rate); when requests are refused is as before.`,
    install: (app) => {
      const limiter = capture(app, 'limiter');
      editReplies(app, MANAGEMENT_ROUTES, (reply): Reply => {
        const limit = headerOf(reply, NAMES.limit);
        if (limit === undefined) return reply;
        const stripped = withoutHeaders(reply, [NAMES.limit, NAMES.reset]);
        return {
          ...stripped,
          headers: {
            ...stripped.headers,
            'X-RateLimit-Burst-Capacity': limit,
            'X-RateLimit-Replenish-Rate': String(limiter().config.refillPerSecond),
            'X-RateLimit-Requested-Tokens': '1',
          },
        };
      });
    },
  },
]);
