// Observed: the rate-limit headers are on successful answers too, and mean what the service's
// documentation says: Limit is the bucket size, Remaining the requests left, Reset a Unix time
// in seconds. Reads of a vault connection are the probe (they write nothing).
import { conformance, expectClause, fixture, type TargetSession } from '../../harness/index.ts';
import { sharedRequest } from '../requests.ts';
import { rateLimitHeaderNames, rateLimitOf } from './headers.ts';

const firstRead = { operation: 'vault' as const, needs: [fixture('vaultConnections')], requests: 0, shared: (c: { target: { fixtures: { vaultConnections: string[] } } }) => [sharedRequest.vaultRead(c.target.fixtures.vaultConnections[0]!)] };

function read(target: TargetSession) {
  const id = target.fixture('vaultConnections')[0]!;
  return target.call('vault', { params: { id }, shared: sharedRequest.vaultRead(id) });
}

conformance('[§8 rate-limit.headers.on-success] a successful vault read carries the three X-RateLimit headers', firstRead, async ({ target }) => {
  const exchange = await read(target);
  const headers = rateLimitOf(exchange);
  expectClause({
    pass: exchange.status < 300 && headers.limit !== undefined && headers.remaining !== undefined && headers.reset !== undefined,
    expected: 'a 2xx with integer X-RateLimit-Limit, -Remaining and -Reset',
    actual: `status ${exchange.status}; ${headers.raw}`,
    exchange,
    headers: rateLimitHeaderNames,
  });
});

conformance(
  '[§8 rate-limit.limit.constant] X-RateLimit-Limit is the same on every answer of the run',
  { operation: 'vault', needs: [fixture('vaultConnections')], requests: 2 },
  async ({ target }) => {
    const id = target.fixture('vaultConnections')[0]!;
    // Two reads of its own, so the rule is checked on at least two answers when the test runs alone.
    await target.call('vault', { params: { id } });
    await target.call('vault', { params: { id } });
    const limits = target.answers.map((e) => e.headers['x-ratelimit-limit'] ?? '(absent)');
    const distinct = [...new Set(limits)];
    expectClause({
      pass: distinct.length === 1 && rateLimitOf(target.answers[0]!).limit !== undefined,
      expected: `one X-RateLimit-Limit on all ${limits.length} answers so far`,
      actual: `X-RateLimit-Limit values ${JSON.stringify(distinct)}`,
    });
  },
);

conformance('[§8 rate-limit.reset.unix-seconds] X-RateLimit-Reset is a Unix time in seconds, not in the past', firstRead, async ({ target }) => {
  const exchange = await read(target);
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
