// Observed: the limit is the management interface's bucket (a token bucket per tenant); the token
// endpoint's requests are counted apart, under its own quota. Here rather than with the other
// rate-limit tests because it sends token requests on purpose, as the token endpoint's tests do.
import { conformance, expectClause, fixture } from '../../harness/index.ts';
import { observed } from '../../specs/index.ts';
import { rateLimitHeaderNames, rateLimitOf } from '../../harness/suite/rate-limit.ts';

const names = observed.rate_limit.headers;

/** Token requests the test below makes between two reads. */
const TOKEN_REQUESTS_BETWEEN = 3;

// The limit is the management interface's bucket (observed: a token bucket per tenant); the token
// endpoint's requests are counted apart, under its own quota. Between two reads, three token
// requests take nothing from the bucket: Remaining falls by the one read at most. A limiter
// attached to a service that the token route belongs to as well counts them. Only where the suite
// has the bucket to itself (a test double): a tenant's other clients take from it between the reads.
conformance(
  '[§8 rate-limit.remaining.falls] token requests between two reads take nothing from the management bucket',
  {
    operation: 'vault',
    needs: [fixture('vaultConnections')],
    requests: (context) => (context.target.testDouble ? 2 + TOKEN_REQUESTS_BETWEEN : 0),
  },
  async ({ target }) => {
    target.needs(target.target.testDouble, "other clients of a tenant take from the bucket between the suite's answers", 'not-applicable');
    const id = target.fixture('vaultConnections')[0]!;
    const before = await target.call('vault', { params: { id } });
    for (let i = 0; i < TOKEN_REQUESTS_BETWEEN; i++) await target.tokenRequest('global');
    const after = await target.call('vault', { params: { id } });
    const [was, is] = [rateLimitOf(before).remaining, rateLimitOf(after).remaining];
    target.needs(was !== undefined && is !== undefined, `no ${names.remaining} on the reads (see rate-limit.headers.on-success)`);
    target.needs(was! > 0, `the bucket was spent before the test (${names.remaining} 0)`);
    expectClause({
      pass: is! >= was! - 1,
      expected: `${names.remaining} at least ${was! - 1} after ${TOKEN_REQUESTS_BETWEEN} token requests and one read (${was} before)`,
      actual: `${names.remaining} ${is}`,
      exchange: after,
      headers: rateLimitHeaderNames,
    });
  },
);
