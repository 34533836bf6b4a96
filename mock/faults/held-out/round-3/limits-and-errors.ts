// The rate limiter, its X-RateLimit headers and the error answers: a bucket that hands out one
// request below empty, a refill never capped at the bucket's size, a bucket per credential, a
// Reset with a fraction of a second; validation messages as lists, errors under the problem+json
// media type, a 403 naming the scopes the caller has, and an anonymous vault read answered 404.
// Each changes one thing; the rest is answered as before.
import { operationKeys } from '../../../../specs/index.ts';
import type { Reply } from '../../../exchange.ts';
import { apiErrorCatalogue, type ApiErrorKind } from '../../../errors.ts';
import { createRateLimiter, type RateLimiter } from '../../../rate-limiter.ts';
import { capture, captureAll } from '../../support/captured.ts';
import { editErrors } from '../../support/error-edits.ts';
import { editReplies, isErrorBody, MANAGEMENT_ROUTES, withContentType } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { answeredInstead } from '../support/answers.ts';
import { slippedBucket } from './support/bucket.ts';
import { exchangeDuring } from './support/exchange-during.ts';

const UNAUTHORIZED = 401;
const FORBIDDEN = 403;
/** The media type of RFC 9457 problem details, which some frameworks give every error. */
const PROBLEM_JSON = 'application/problem+json; charset=utf-8';
/** The refusals of a validation framework, whose messages class-validator writes as lists. */
const VALIDATION_ERRORS: readonly ApiErrorKind[] = ['invalid_uri', 'invalid_headers', 'invalid_body'];
/** Buckets kept, one per credential, oldest dropped first. */
const BUCKETS_KEPT = 10_000;

function messageOf(reply: Reply): unknown {
  const body = reply.body;
  return body !== null && typeof body === 'object' ? (body as { message?: unknown }).message : undefined;
}

export const limitAndErrorFaults = heldOutFamily([
  {
    id: 'ho3-bucket-hands-out-one-more',
    clause: 'redeliver.errors.429',
    level: 'contract',
    bug: 'An off-by-one in the bucket, the request refused only when the count would fall below -1 ("remaining < 0" tested after the decrement): one request more than the bucket holds is served, so the request after the answer that said X-RateLimit-Remaining 0 is accepted (a redelivery answers 202) instead of 429; the one after that gets 429.',
    install: (app) => app.override('limiter', (limiter, built) => slippedBucket(limiter.config, built.clock!, { overdraft: 1 })),
  },
  {
    id: 'ho3-bucket-refill-uncapped',
    clause: 'rate-limit.headers.consistent',
    level: 'observed',
    bug: 'A bucket refilled without Math.min(capacity, ...): after a pause it holds more than its size, so X-RateLimit-Remaining reads above X-RateLimit-Limit (10 of a limit of 2 after ten idle seconds at one request a second) and more requests pass than the limit says.',
    install: (app) => app.override('limiter', (limiter, built) => slippedBucket(limiter.config, built.clock!, { uncapped: true })),
  },
  {
    id: 'ho3-bucket-per-credential',
    clause: 'rate-limit.remaining.falls',
    level: 'observed',
    bug: "The limiter keyed by the Authorization header (a gateway's per-API-key limit) instead of the tenant: a new token of the same tenant starts a full bucket, so after a 429 with one token the next request with another is served and X-RateLimit-Remaining goes back up; requests with the same token are still limited.",
    install(app) {
      const exchange = exchangeDuring(app, MANAGEMENT_ROUTES);
      app.override('limiter', (limiter, built) => {
        const buckets = new Map<string, RateLimiter>();
        return {
          config: limiter.config,
          take() {
            const key = exchange()?.headers.authorization ?? '';
            let bucket = buckets.get(key);
            if (!bucket) {
              if (buckets.size >= BUCKETS_KEPT) buckets.delete(buckets.keys().next().value!);
              bucket = createRateLimiter(limiter.config, built.clock!);
              buckets.set(key, bucket);
            }
            return bucket.take();
          },
        };
      });
    },
  },
  {
    id: 'ho3-reset-with-fraction',
    clause: 'rate-limit.reset.unix-seconds',
    level: 'observed',
    bug: 'X-RateLimit-Reset written as (now + wait) / 1000 without rounding: "1735689600.01", a Unix time with a fraction of a second instead of whole seconds.',
    install: (app) => app.override('limiter', (limiter, built) => slippedBucket(limiter.config, built.clock!, { unroundedReset: true })),
  },
  {
    id: 'ho3-validation-messages-as-lists',
    clause: 'errors.body.shape',
    level: 'observed',
    bug: 'Validation errors written the way class-validator reports them, message a list of problems: a 400 for a bad path id, header or body has message ["Payload validation error: ..."], an array, instead of a string (other errors keep theirs).',
    install: (app) =>
      editErrors(app, VALIDATION_ERRORS, (reply) =>
        isErrorBody(reply.body) && typeof reply.body.message === 'string'
          ? { ...reply, body: { ...reply.body, message: [reply.body.message] } }
          : reply,
      ),
  },
  {
    id: 'ho3-errors-as-problem-json',
    clause: 'errors.body.content-type',
    level: 'observed',
    bug: `An error handler that marks every error as RFC 9457 problem details: error answers have content type ${PROBLEM_JSON} (same body) instead of application/json; charset=utf-8; successes keep theirs.`,
    install: (app) => editErrors(app, Object.keys(apiErrorCatalogue) as ApiErrorKind[], (reply) => withContentType(reply, PROBLEM_JSON)),
  },
  {
    id: 'ho3-403-names-the-scopes-held',
    clause: 'errors.403.scope-named',
    level: 'observed',
    bug: 'A 403 message filled from the wrong variable, the token\'s scopes instead of the ones required: "Insufficient scope, expected any of: <the scopes the caller holds>" names the scopes it has, not the one it needs.',
    install(app) {
      const components = captureAll(app);
      editReplies(app, operationKeys, async (reply, exchange) => {
        const { errors, verifier } = components();
        if (reply.status !== FORBIDDEN || !String(messageOf(reply)).startsWith(errors.message('insufficient_scope'))) return reply;
        const caller = await verifier.verify(exchange.headers.authorization, exchange.headers.host);
        return caller.ok ? answeredInstead(reply, errors.reply('insufficient_scope', [...caller.principal.scopes].join(','))) : reply;
      });
    },
  },
  {
    id: 'ho3-vault-anonymous-answered-404',
    clause: 'errors.401.all-operations',
    level: 'observed',
    bug: 'The vault read hides its resources from anonymous callers, the way some APIs answer private resources: a request without any Authorization header is answered 404 "Connection not found" instead of 401; an invalid token still gets 401.',
    install(app) {
      const errors = capture(app, 'errors');
      editReplies(app, ['vault'], (reply, exchange) =>
        reply.status === UNAUTHORIZED && exchange.headers.authorization === undefined
          ? answeredInstead(reply, errors().reply('vault_connection_not_found'))
          : reply,
      );
    },
  },
]);
