// The limiter and its headers: a 429 that keeps Limit and Remaining but loses Reset, a bucket
// refilled whenever the token endpoint issues a token; and the observed rules: Remaining -1 on a
// 429, and 401 answers without Reset. Each changes when a request is refused or what a header
// says; everything else is answered as before.
import { createRateLimiter, type RateLimiter } from '../../../rate-limiter.ts';
import { editReplies, MANAGEMENT_ROUTES, withoutHeaders } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';

const RESET = 'x-ratelimit-reset';
const REMAINING = 'x-ratelimit-remaining';
const headerName = (headers: Record<string, string>, name: string) => Object.keys(headers).find((header) => header.toLowerCase() === name);

export const rateLimitFaults = heldOutFamily([
  {
    id: 'ho18-429-without-reset',
    clause: 'rate-limit.429.headers',
    level: 'contract',
    bug: 'The 429 written by a handler that sets Retry-After in place of X-RateLimit-Reset (one header thought to replace the other): a refused request carries X-RateLimit-Limit and -Remaining but no X-RateLimit-Reset; admitted requests carry all three as before.',
    install: (app) => editReplies(app, MANAGEMENT_ROUTES, (reply) => (reply.status === 429 ? withoutHeaders(reply, [RESET]) : reply)),
  },
  {
    id: 'ho18-bucket-refilled-by-token-issue',
    clause: 'redeliver.errors.429',
    level: 'contract',
    bug: 'The management bucket reset when the token endpoint issues a token (a "new session, fresh quota" habit of a login-based limiter): a client that emptied its bucket and fetched a new token is admitted instead of 429; without a new token it is refused as before.',
    install: (app) => {
      let current: RateLimiter | undefined;
      let renew: (() => RateLimiter) | undefined;
      app.override('limiter', (limiter, built): RateLimiter => {
        current = limiter;
        renew = () => createRateLimiter(limiter.config, built.clock!);
        return { config: limiter.config, take: () => current!.take() };
      });
      app.wrapRoute('token', (next) => async (exchange) => {
        const reply = await next(exchange);
        if (reply.status === 200 && renew) current = renew();
        return reply;
      });
    },
  },
  {
    id: 'ho18-remaining-minus-one-on-429',
    clause: 'rate-limit.remaining.falls',
    level: 'observed',
    bug: 'Remaining worked out as count - 1 before the refusal was decided (a decrement that is not undone when the bucket is empty): X-RateLimit-Remaining "-1" on a 429 instead of 0; admitted requests count down as before.',
    install: (app) =>
      editReplies(app, MANAGEMENT_ROUTES, (reply) => {
        const name = headerName(reply.headers, REMAINING);
        return reply.status === 429 && name !== undefined ? { ...reply, headers: { ...reply.headers, [name]: '-1' } } : reply;
      }),
  },
  {
    id: 'ho18-401-without-reset',
    clause: 'rate-limit.headers.consistent',
    level: 'observed',
    bug: 'Reset set by a late middleware that runs only after authentication (the 401 short-circuits it): a refused-for-credentials answer carries X-RateLimit-Limit and -Remaining but no X-RateLimit-Reset; other answers carry all three as before.',
    install: (app) => editReplies(app, MANAGEMENT_ROUTES, (reply) => (reply.status === 401 ? withoutHeaders(reply, [RESET]) : reply)),
  },
]);
