// Observed (inferred, see the clause): every answer of every operation, its successes and its
// errors alike, carries the three X-RateLimit headers, and they agree with what they mean:
// Remaining within 0..Limit (0 on a 429), Reset at or after the answer's Date and within
// observed.rate_limit.reset_within_seconds of it. Each operation's success, a 400 and a 401 are
// requests other tests already send (its valid request, rows of its matrix); one more test reads
// every answer of the run so far.
import { conformance, expectNoProblems, type Exchange } from '../../harness/index.ts';
import { matrixRowCall } from '../../harness/suite/matrix.ts';
import { rateLimitConsistencyProblems, rateLimitHeaderNames } from '../../harness/suite/rate-limit.ts';
import { successOf, type SharedCall } from '../../harness/suite/requests.ts';
import { card as cardOf } from '../../specs/cards/index.ts';
import { observed, operationKeys, type OperationKey } from '../../specs/index.ts';

const RULE = `the three X-RateLimit headers, whole numbers, Remaining within 0..Limit (0 on a 429), Reset from the answer's Date to ${observed.rate_limit.reset_within_seconds.value} s after`;

function answersOf(op: OperationKey): Array<{ answer: string; request: SharedCall }> {
  const param = Object.keys(cardOf(op).params)[0]!;
  return [
    { answer: 'success', request: successOf(op) },
    { answer: '400', request: matrixRowCall(op, `${op} path.{${param}} other-owner:another-kind valid`) },
    { answer: '401', request: matrixRowCall(op, `${op} authorization absent:absent valid`) },
  ];
}
for (const op of operationKeys) {
  for (const { answer, request } of answersOf(op)) {
    conformance(
      `[§8 rate-limit.headers.consistent] the ${answer} of ${op} carries consistent X-RateLimit headers`,
      request.plan,
      async ({ target }) => {
        const exchange = await request.send(target);
        expectNoProblems(rateLimitConsistencyProblems(exchange), RULE, { exchange, headers: [...rateLimitHeaderNames, 'date'] });
      },
    );
  }
}

function described(exchange: Exchange, index: number): string {
  return `answer ${index + 1} (${exchange.request.method} ${new URL(exchange.request.url).pathname}, ${exchange.status})`;
}

conformance(
  '[§8 rate-limit.headers.consistent] every answer of the management interface in the run so far carries consistent X-RateLimit headers',
  { operation: 'vault', requests: 0 },
  async ({ target }) => {
    const answers = target.answers;
    target.needs(answers.length > 0, 'no answer of the management interface came before this test (run alone, it has nothing to read)');
    const problems = answers.flatMap((exchange, index) =>
      rateLimitConsistencyProblems(exchange).map((problem) => `${described(exchange, index)}: ${problem}`),
    );
    expectNoProblems(
      problems.slice(0, 5).concat(problems.length > 5 ? [`and ${problems.length - 5} more`] : []),
      `on each of ${answers.length} answers: ${RULE}`,
    );
  },
);
