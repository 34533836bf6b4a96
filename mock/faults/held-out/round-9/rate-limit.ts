// The limiter and its headers: a refill added every tenth of a second at its per-second amount, and
// a count of requests kept in one byte; and the observed rules: X-RateLimit-Limit read from the
// token endpoint's bucket, and numbers written with toLocaleString(). Each changes one count or one
// header; everything else is answered as before.
import { observed } from '../../../../specs/index.ts';
import { createRateLimiter } from '../../../rate-limiter.ts';
import { capture } from '../../support/captured.ts';
import { MANAGEMENT_ROUTES, editReplies } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { headerOf, withHeader } from '../support/answers.ts';
import { byteCounterBucket } from './support/byte-counter-bucket.ts';

const NAMES = observed.rate_limit.headers;
/** The tick of the slipped refill timer, and how many of them make the second its amount is for. */
const TICKS_A_SECOND = 10;
/** The width of the byte the slipped counter is kept in. */
const BYTE = 256;

export const rateLimitFaults = heldOutFamily([
  {
    id: 'ho9-refill-per-tick',
    clause: 'redeliver.errors.429',
    level: 'contract',
    bug: `The bucket refilled by a timer that runs every ${1000 / TICKS_A_SECOND} ms and adds refillPerSecond tokens each time (the amount meant for a second): it refills ${TICKS_A_SECOND} times too fast, and a burst that emptied it is let through again ${1000 / TICKS_A_SECOND} ms later instead of 429; a burst within one tick is still refused.`,
    install: (app) =>
      app.override('limiter', (limiter, built) => {
        const fast = createRateLimiter(
          { ...limiter.config, refillPerSecond: limiter.config.refillPerSecond * TICKS_A_SECOND },
          built.clock!,
        );
        return { config: limiter.config, take: () => fast.take() };
      }),
  },
  {
    id: 'ho9-request-count-in-a-byte',
    clause: 'redeliver.errors.429',
    level: 'contract',
    bug: `The requests taken from the bucket counted in one byte (a Uint8Array slot of a per-client table): the count wraps to 0 after ${BYTE - 1}, so a bucket of more than ${BYTE - 1} requests is never emptied, and the request after the bucket's size is answered instead of 429; a bucket of ${BYTE - 1} or fewer is refused as before.`,
    install: (app) => app.override('limiter', (limiter, built) => byteCounterBucket(limiter.config, built.clock!)),
  },
  {
    id: 'ho9-limit-from-token-bucket',
    clause: 'rate-limit.limit.constant',
    level: 'observed',
    bug: `${NAMES.limit} filled in from the rate-limit settings of the token endpoint (a copy-paste of the settings object): every management answer says the token endpoint's bucket size instead of its own; ${NAMES.remaining} and ${NAMES.reset} are the management bucket's as before.`,
    install: (app) => {
      const tokenLimiter = capture(app, 'tokenLimiter');
      editReplies(app, MANAGEMENT_ROUTES, (reply) =>
        headerOf(reply, NAMES.limit) === undefined ? reply : withHeader(reply, NAMES.limit, String(tokenLimiter().config.bucketSize)),
      );
    },
  },
  {
    id: 'ho9-reset-locale-formatted',
    clause: 'rate-limit.reset.unix-seconds',
    level: 'observed',
    bug: `The X-RateLimit values written with Number.prototype.toLocaleString() (meant for a dashboard): ${NAMES.reset} reads "1,735,689,601" instead of 1735689601; a ${NAMES.limit} or ${NAMES.remaining} under 1,000 is written as before.`,
    install: (app) =>
      editReplies(app, MANAGEMENT_ROUTES, (reply) => {
        let edited = reply;
        for (const name of Object.values(NAMES)) {
          const value = headerOf(edited, name);
          if (value !== undefined && /^\d+$/.test(value)) edited = withHeader(edited, name, Number(value).toLocaleString('en-US'));
        }
        return edited;
      }),
  },
]);
