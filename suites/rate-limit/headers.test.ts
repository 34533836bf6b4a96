// Observed: the rate-limit headers are on successful answers too, and mean what the service's
// documentation says: Limit is the bucket size, Remaining the requests left, Reset a Unix time
// in seconds. Reads of a vault connection are the probe (they write nothing).
import { conformance, expectEqual, expectNoProblems, expectPresent, expectSuccess, fixture } from '../../harness/index.ts';
import { observed } from '../../specs/index.ts';
import { successOf } from '../../harness/suite/requests.ts';
import {
  answerSecondsOf,
  rateLimitHeader,
  rateLimitHeaderNames,
  rateLimitOf,
  rateLimitProblems,
  resetProblems,
} from '../../harness/suite/rate-limit.ts';

const names = observed.rate_limit.headers;
const firstRead = successOf('vault');

conformance(
  '[§8 rate-limit.headers.on-success] a successful vault read carries the three X-RateLimit headers',
  firstRead.plan,
  async ({ target }) => {
    const exchange = await firstRead.send(target);
    expectSuccess(exchange);
    expectNoProblems(rateLimitProblems(exchange), `whole-number ${names.limit}, ${names.remaining} and ${names.reset}`, {
      exchange,
      headers: rateLimitHeaderNames,
    });
  },
);

conformance(
  '[§8 rate-limit.limit.constant] X-RateLimit-Limit is the same on every answer of the run',
  { operation: 'vault', needs: [fixture('vaultConnections')], requests: 2 },
  async ({ target }) => {
    const id = target.fixture('vaultConnections')[0]!;
    // Two reads of its own, so the rule is checked on at least two answers when the test runs alone.
    await target.call('vault', { params: { id } });
    await target.call('vault', { params: { id } });
    const distinct = [...new Set(target.answers.map((e) => e.headers[rateLimitHeader.limit]))];
    expectPresent(rateLimitOf(target.answers[0]!).limit, `${names.limit} of the first answer`, { exchange: target.answers[0]! });
    expectEqual(distinct, distinct.slice(0, 1), `${names.limit} values over the run's ${target.answers.length} answers`);
  },
);

// Limit is the bucket's size: not the requests a client may make in its first second (the bucket
// and a second's refill, the figure a plan's page may show). Where the run started the target
// (the embedded mock) it knows the bucket exactly; a target file's published tier limit stands
// for it elsewhere.
conformance(
  '[§8 rate-limit.limit.constant] X-RateLimit-Limit is the bucket size the target was started with, or the limit its target file states',
  {
    ...firstRead.plan,
    needs: [
      ...(firstRead.plan.needs as []),
      {
        check: ({ target }: { target: { rateLimit: { limit?: number; startedBucket?: number } } }) =>
          (target.rateLimit.startedBucket ?? target.rateLimit.limit) === undefined
            ? 'the bucket size is not known: the target file states no rate_limit.limit'
            : undefined,
        category: 'not-applicable' as const,
      },
    ],
  },
  async ({ target }) => {
    const exchange = await firstRead.send(target);
    const bucket = target.target.rateLimit.startedBucket ?? target.target.rateLimit.limit;
    expectEqual(rateLimitOf(exchange).limit, bucket, names.limit, { exchange, headers: rateLimitHeaderNames });
  },
);

conformance(
  '[§8 rate-limit.reset.unix-seconds] X-RateLimit-Reset is a Unix time in seconds, not in the past',
  firstRead.plan,
  async ({ target }) => {
    const exchange = await firstRead.send(target);
    expectNoProblems(
      resetProblems(exchange),
      `${names.reset} in Unix seconds, at or after the answer's Date (${answerSecondsOf(exchange)})`,
      {
        exchange,
        headers: [...rateLimitHeaderNames, 'date'],
      },
    );
  },
);
