// The rate limiter, its X-RateLimit headers and two error answers: a limiter that counts writes but
// enforces only on reads, the headers spelt another common way, a bucket whose last token is never
// handed out, a 429 written in the token endpoint's shape, and a 409 whose body comes from the
// validation-error template. Each changes one thing; the limiter counts as before.
import { observed } from '../../../../specs/index.ts';
import type { Clock } from '../../../clock.ts';
import { reasonPhrase, tokenDescriptions } from '../../../errors.ts';
import type { Quota, RateLimitConfig, RateLimiter } from '../../../rate-limiter.ts';
import { editErrors } from '../../support/error-edits.ts';
import { editReplies, isErrorBody, MANAGEMENT_ROUTES } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { duringRoutes } from './support/during.ts';

const names = observed.rate_limit.headers;
/** The spelling of the same headers some gateways and APIs use (X-Rate-Limit-Limit...). */
const HYPHENATED = (name: string) => name.replace(/^X-RateLimit-/, 'X-Rate-Limit-');
/** The status of a validation error, whose template one fault writes a 409 from. */
const BAD_REQUEST = 400;
/** One token, in the bucket's units (token-milliseconds per second), as rate-limiter.ts counts. */
const TOKEN = 1000;

/**
 * The mock's token bucket (rate-limiter.ts) with one comparison changed: a request is refused when
 * the bucket holds one token or less ("<=" where "<" was meant), so its last token is never handed out.
 */
function bucketKeepingItsLastToken(config: RateLimitConfig, clock: Clock): RateLimiter {
  const capacity = config.bucketSize * TOKEN;
  let units = capacity;
  let updatedAt = clock.now();
  const quota = (allowed: boolean, now: number): Quota => ({
    allowed,
    limit: config.bucketSize,
    remaining: Math.max(0, Math.floor(units / TOKEN)),
    resetSeconds: Math.ceil((now + (TOKEN - (units % TOKEN)) / config.refillPerSecond) / 1000),
  });
  return {
    config,
    take() {
      const now = clock.now();
      if (now > updatedAt) units = Math.min(capacity, units + (now - updatedAt) * config.refillPerSecond);
      updatedAt = now;
      if (units <= TOKEN) return quota(false, now);
      units -= TOKEN;
      return quota(true, now);
    },
  };
}

export const limitAndErrorFaults = heldOutFamily([
  {
    id: 'ho2-writes-never-refused-by-limiter',
    clause: 'redeliver.errors.429',
    level: 'contract',
    bug: 'A rate limiter that counts every request but is set to enforce on the read routes only: redelivery and ticket creation take their token and carry the X-RateLimit headers, but an empty bucket never refuses them (202, 201); the vault read still gets 429.',
    install(app) {
      const writing = duringRoutes(app, ['redeliver', 'sso-ticket']);
      app.override('limiter', (limiter) => ({
        config: limiter.config,
        take() {
          const quota = limiter.take();
          return !quota.allowed && writing() ? { ...quota, allowed: true } : quota;
        },
      }));
    },
  },
  {
    id: 'ho2-rate-limit-headers-hyphenated',
    clause: 'rate-limit.429.headers',
    level: 'contract',
    bug: `Rate-limit headers written by a middleware that spells them ${HYPHENATED(names.limit)}, ${HYPHENATED(names.remaining)} and ${HYPHENATED(names.reset)}: every answer, a 429 included, carries the three values under those names and none under X-RateLimit-*.`,
    install: (app) =>
      editReplies(app, MANAGEMENT_ROUTES, (reply) => {
        const headers = Object.fromEntries(
          Object.entries(reply.headers).map(([name, value]) => [/^x-ratelimit-/i.test(name) ? HYPHENATED(headerName(name)) : name, value]),
        );
        return { ...reply, headers };
      }),
  },
  {
    id: 'ho2-bucket-keeps-its-last-token',
    clause: 'rate-limit.headers.consistent',
    level: 'observed',
    bug: 'An off-by-one in the bucket ("units <= one token" refused): the last token is never handed out, so the request after an answer saying X-RateLimit-Remaining 1 is answered 429 with Remaining still 1 instead of 0.',
    install: (app) => app.override('limiter', (limiter, built) => bucketKeepingItsLastToken(limiter.config, built.clock!)),
  },
  {
    id: 'ho2-429-in-token-endpoint-shape',
    clause: 'errors.429.body',
    level: 'observed',
    bug: `The management interface's 429 written by the rate-limit module shared with the token endpoint: its body is {"error": "too_many_requests", "error_description": "${tokenDescriptions.tooManyRequests}"} instead of the message "Global limit has been reached" and errorCode too_many_requests (status and headers unchanged).`,
    install: (app) =>
      editErrors(app, ['too_many_requests'], (reply) => ({
        ...reply,
        body: { error: 'too_many_requests', error_description: tokenDescriptions.tooManyRequests },
      })),
  },
  {
    id: 'ho2-409-body-from-400-template',
    clause: 'errors.body.shape',
    level: 'observed',
    bug: `Redelivery's state refusal built from the validation-error template: the answer's status is 409 but its body says statusCode ${BAD_REQUEST} and error "${reasonPhrase(BAD_REQUEST)}".`,
    install: (app) =>
      editErrors(app, ['event_not_redeliverable'], (reply) =>
        isErrorBody(reply.body) ? { ...reply, body: { ...reply.body, statusCode: BAD_REQUEST, error: reasonPhrase(BAD_REQUEST) } } : reply,
      ),
  },
]);

/** A rate-limit header's name as observed.yaml spells it (replies may carry it in any case). */
function headerName(name: string): string {
  return Object.values(names).find((known) => known.toLowerCase() === name.toLowerCase()) ?? name;
}
