// Observed: the rate-limit headers are on successful answers too, and mean what the service's
// documentation says: Limit is the bucket size, Remaining the requests left, Reset a Unix time
// in seconds. Reads of a vault connection are the probe (they write nothing).
import { conformance, expectClause, type TargetSession } from '../../harness/index.ts';
import { validRequest } from '../requests.ts';
import { rateLimitHeaderNames, rateLimitOf } from './headers.ts';

const BURST = 10;

/** One read, then BURST reads at once: together they outrun any refill between them. */
async function burst(target: TargetSession) {
  const first = await target.call('vault', validRequest(target, 'vault'));
  const rest = await Promise.all(Array.from({ length: BURST }, () => target.call('vault', validRequest(target, 'vault'))));
  return [first, ...rest];
}

conformance('[§8 rate-limit.headers.on-success] a successful vault read carries the three X-RateLimit headers', async ({ target }) => {
  const exchange = await target.call('vault', validRequest(target, 'vault'));
  const headers = rateLimitOf(exchange);
  expectClause({
    pass: exchange.status < 300 && headers.limit !== undefined && headers.remaining !== undefined && headers.reset !== undefined,
    expected: 'a 2xx with integer X-RateLimit-Limit, -Remaining and -Reset',
    actual: `status ${exchange.status}; ${headers.raw}`,
    exchange,
    headers: rateLimitHeaderNames,
  });
});

conformance('[§8 rate-limit.limit.constant] X-RateLimit-Limit stays the same over a burst of requests', async ({ target }) => {
  const limits = (await burst(target)).map((e) => rateLimitOf(e).limit);
  expectClause({
    pass: limits[0] !== undefined && limits.every((l) => l === limits[0]),
    expected: `the same X-RateLimit-Limit on ${BURST + 1} answers in a row`,
    actual: `X-RateLimit-Limit values ${JSON.stringify(limits)}`,
  });
});

conformance('[§8 rate-limit.remaining.falls] X-RateLimit-Remaining falls over a burst and stays within 0..Limit', async ({ target }) => {
  const exchanges = await burst(target);
  const seen = exchanges.map((e) => rateLimitOf(e));
  const remaining = seen.map((h) => h.remaining);
  const first = remaining[0];
  const lowest = Math.min(...remaining.slice(1).map((r) => r ?? Number.POSITIVE_INFINITY));
  const inRange = seen.every((h) => h.remaining !== undefined && h.limit !== undefined && h.remaining <= h.limit);
  expectClause({
    pass: inRange && first !== undefined && lowest < first,
    expected: `Remaining a whole number within 0..Limit on every answer, lower during a burst of ${BURST} than before it`,
    actual: `X-RateLimit-Remaining ${exchanges.map((e) => e.headers['x-ratelimit-remaining'] ?? '(absent)').join(', ')}; Limit ${seen[0]?.limit ?? '(absent)'}`,
  });
});

conformance('[§8 rate-limit.reset.unix-seconds] X-RateLimit-Reset is a Unix time in seconds, not in the past', async ({ target }) => {
  const exchange = await target.call('vault', validRequest(target, 'vault'));
  const reset = rateLimitOf(exchange).reset;
  // The target's own clock (its Date header) is the reference, so clock skew does not matter.
  const dated = Date.parse(exchange.headers.date ?? '');
  const now = Math.floor((Number.isNaN(dated) ? Date.now() : dated) / 1000);
  const plausibleSeconds = reset !== undefined && reset > 1e9 && reset < 1e11;
  expectClause({
    pass: plausibleSeconds && reset >= now,
    expected: `X-RateLimit-Reset in Unix seconds, at or after the answer's Date (${now})`,
    actual: `X-RateLimit-Reset ${JSON.stringify(exchange.headers['x-ratelimit-reset'])}${plausibleSeconds ? '' : ' (not Unix seconds)'}`,
    exchange,
    headers: [...rateLimitHeaderNames, 'date'],
  });
});
