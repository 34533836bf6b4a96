// Spec section 7: redelivery answers 429 to too many requests, and section 8: a 429 carries the
// three X-RateLimit headers. These spend the rate limit on purpose: on a tenant, only with
// --allow-rate-limit-exhaustion.
import { conformance, expectClause, expectObservedError } from '../../harness/index.ts';
import { exhaustRateLimit } from './exhaust.ts';
import { rateLimitHeaderNames, rateLimitOf } from './headers.ts';

conformance('[§7 redeliver.errors.429] redelivery answers 429 once the rate limit is spent', async ({ target }) => {
  const { last, why } = await exhaustRateLimit(target);
  expectClause({ pass: last.status === 429, expected: 'a 429 once the rate limit is spent', actual: why, exchange: last, headers: rateLimitHeaderNames });
});

conformance('[§8 rate-limit.429.headers] a 429 carries X-RateLimit-Limit, X-RateLimit-Remaining and X-RateLimit-Reset', async ({ target }) => {
  const { last, why } = await exhaustRateLimit(target);
  target.needs(last.status === 429, `${why}, so there is no 429 to check (see redeliver.errors.429)`);
  const headers = rateLimitOf(last);
  expectClause({
    pass: headers.limit !== undefined && headers.remaining !== undefined && headers.reset !== undefined,
    expected: 'integer X-RateLimit-Limit, X-RateLimit-Remaining and X-RateLimit-Reset',
    actual: headers.raw,
    exchange: last,
    headers: rateLimitHeaderNames,
  });
});

conformance('[§8 rate-limit.remaining.falls] X-RateLimit-Remaining is not below 0 once the rate limit is spent', async ({ target }) => {
  const { last, why } = await exhaustRateLimit(target);
  target.needs(last.status === 429, `${why}, so the limit was never spent (see redeliver.errors.429)`);
  const raw = last.headers['x-ratelimit-remaining'];
  expectClause({
    pass: raw !== undefined && /^\d+$/.test(raw.trim()),
    expected: 'X-RateLimit-Remaining a whole number, 0 or more, on the 429',
    actual: `X-RateLimit-Remaining ${JSON.stringify(raw)}`,
    exchange: last,
    headers: rateLimitHeaderNames,
  });
});

conformance('[§7 errors.429.body] a 429 says "Global limit has been reached" with errorCode too_many_requests', async ({ target }) => {
  const { last, why } = await exhaustRateLimit(target);
  target.needs(last.status === 429, `${why}, so there is no 429 to check (see redeliver.errors.429)`);
  expectObservedError(last, 'too_many_requests');
});
