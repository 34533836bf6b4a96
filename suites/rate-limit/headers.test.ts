// Observed: the rate-limit headers are on successful answers too, and mean what the service's
// documentation says: Limit is the bucket size, Remaining the requests left, Reset a Unix time
// in seconds. Reads of a vault connection are the probe (they write nothing).
import { conformance, expectClause, type TargetSession } from '../../harness/index.ts';
import { validRequest } from '../requests.ts';
import { rateLimitHeaderNames, rateLimitOf } from './headers.ts';

const BURST = 5;

async function burst(target: TargetSession) {
  const exchanges = [];
  for (let i = 0; i < BURST; i += 1) exchanges.push(await target.call('vault', validRequest(target, 'vault')));
  return exchanges;
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
    expected: `the same X-RateLimit-Limit on ${BURST} consecutive answers`,
    actual: `X-RateLimit-Limit values ${JSON.stringify(limits)}`,
  });
});

conformance('[§8 rate-limit.remaining.falls] X-RateLimit-Remaining falls over a burst and stays within 0..Limit', async ({ target }) => {
  const seen = (await burst(target)).map((e) => rateLimitOf(e));
  const remaining = seen.map((h) => h.remaining);
  const first = remaining[0];
  const last = remaining[remaining.length - 1];
  const inRange = seen.every((h) => h.remaining !== undefined && h.limit !== undefined && h.remaining >= 0 && h.remaining <= h.limit);
  expectClause({
    pass: inRange && first !== undefined && last !== undefined && last < first,
    expected: `Remaining within 0..Limit on every answer, lower after ${BURST} requests than before`,
    actual: `Remaining ${JSON.stringify(remaining)}, Limit ${JSON.stringify(seen.map((h) => h.limit))}`,
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
