// The rate limiter and its X-RateLimit headers: a 429 built from an object without the limit, a
// client-set X-Forwarded-For trusted to exempt internal callers, the requests left rounded to the
// nearest, the headers dropped from created-resource answers by an allow-list, and an anonymous
// caller's answers given the default tier's limit. Each changes one thing; the rest is answered as
// before.
import { cards } from '../../../../specs/cards/index.ts';
import { observed } from '../../../../specs/index.ts';
import { mockOperations } from '../../../operations.ts';
import { capture } from '../../support/captured.ts';
import { editReplies, isErrorBody, MANAGEMENT_ROUTES, withoutHeaders } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { handlerOf } from '../round-2/support/handlers.ts';
import { answeredInstead, withHeader } from '../support/answers.ts';
import { roundingBucket } from './support/bucket.ts';

const TOO_MANY_REQUESTS = 429;
const UNAUTHORIZED = 401;
const NAMES = observed.rate_limit.headers;
const CREATED = cards['sso-ticket'].success.status;
/** The bucket size of the lowest published tier, which the tier lookup falls back to for a caller it cannot name. */
const DEFAULT_TIER_LIMIT = observed.rate_limit.profiles.free.bucket_size;
/** Addresses the exemption list calls internal. */
const INTERNAL = /^(127\.\d+\.\d+\.\d+|::1|10\.\d+\.\d+\.\d+)$/;

function forwardedFrom(header: string | string[] | undefined): string | undefined {
  return (Array.isArray(header) ? header[0] : header)?.split(',')[0]?.trim();
}

export const rateLimitFaults = heldOutFamily([
  {
    id: 'ho5-429-limit-undefined',
    clause: 'rate-limit.429.headers',
    level: 'contract',
    bug: `The 429 answer's headers written from the limiter's refusal object, which has no limit field, with String(quota.limit): every 429 carries "${NAMES.limit}: undefined" instead of the bucket size (the other two headers are right); other answers carry the number.`,
    install: (app) =>
      editReplies(app, MANAGEMENT_ROUTES, (reply) =>
        reply.status === TOO_MANY_REQUESTS ? withHeader(reply, NAMES.limit, String(undefined)) : reply,
      ),
  },
  {
    id: 'ho5-forwarded-internal-callers-exempt',
    clause: 'redeliver.errors.429',
    level: 'contract',
    bug: 'An exemption for internal callers decided by the first address of X-Forwarded-For, which the client sets itself: with the bucket empty, a redelivery that carries "X-Forwarded-For: 127.0.0.1" is answered 202 instead of 429 (the other operations likewise); without the header, or with a public address in it, it is still refused with 429.',
    install(app) {
      for (const { card, route } of Object.values(mockOperations)) {
        const serve = handlerOf(app, (components) => route(components, card));
        app.wrapRoute(card.key, (next) => async (exchange) => {
          const reply = await next(exchange);
          const from = forwardedFrom(exchange.headers['x-forwarded-for']);
          return reply.status === TOO_MANY_REQUESTS && from !== undefined && INTERNAL.test(from)
            ? answeredInstead(reply, await serve(exchange))
            : reply;
        });
      }
    },
  },
  {
    id: 'ho5-remaining-rounded',
    clause: 'rate-limit.headers.consistent',
    level: 'observed',
    bug: `${NAMES.remaining} written with Math.round where the bucket counts whole requests (Math.floor): a bucket holding more than half a request says one is left, so a 429 can say ${NAMES.remaining}: 1, and an answer saying 1 can be followed at once by a 429.`,
    install: (app) => app.override('limiter', (limiter, built) => roundingBucket(limiter.config, built.clock!)),
  },
  {
    id: 'ho5-created-answers-without-rate-limit-headers',
    clause: 'rate-limit.headers.on-success',
    level: 'observed',
    bug: `A response filter that keeps an allow-list of headers for ${CREATED} Created answers (Location, Content-Type, Cache-Control): ticket creation's ${CREATED} carries no X-RateLimit headers; its refusals, and the other operations' successes, still do.`,
    install: (app) =>
      editReplies(app, ['sso-ticket'], (reply) => (reply.status === CREATED ? withoutHeaders(reply, Object.values(NAMES)) : reply)),
  },
  {
    id: 'ho5-anonymous-answers-default-tier-limit',
    clause: 'rate-limit.limit.constant',
    level: 'observed',
    bug: `${NAMES.limit} looked up from the caller's subscription tier, which falls back to the lowest tier's ${DEFAULT_TIER_LIMIT} when the caller cannot be named: every 401 for a token that does not verify says ${NAMES.limit}: ${DEFAULT_TIER_LIMIT} while the other answers give the bucket's size, though all draw on the one bucket.`,
    install(app) {
      const errors = capture(app, 'errors');
      editReplies(app, MANAGEMENT_ROUTES, (reply) => {
        const named = isErrorBody(reply.body) && reply.body.message === errors().message('client_not_global');
        return reply.status === UNAUTHORIZED && !named ? withHeader(reply, NAMES.limit, String(DEFAULT_TIER_LIMIT)) : reply;
      });
    },
  },
]);
