// The X-RateLimit headers of the management interface's answers, one by one and across the
// recorded sequence (spec 8; observed.yaml rate_limit). Across answers, only what the headers
// themselves guarantee is judged: Reset is when the bucket next gains a request (a Unix second,
// rounded up), so an answer whose Date is at least two seconds before the previous answer's
// Reset came before any refill, and must show one request fewer, and a request that finds the
// bucket empty then must be refused 429. Other clients of the tenant only lower Remaining further.
import { readRateLimitHeaders, wholeNumber } from '../../harness/rate-limit-headers.ts';
import { observed } from '../../specs/index.ts';
import { isSuccess, judge, type Classified, type Judgment } from '../judgment.ts';
import { sharedClauses } from '../rules.ts';

const names = observed.rate_limit.headers;
const RESET_WITHIN_SECONDS = observed.rate_limit.reset_within_seconds.value;
/** Reset values above this are milliseconds, not Unix seconds. */
const MILLISECONDS_THRESHOLD = 1e11;

function missingHeaders(x: Classified): string[] {
  return [names.limit, names.remaining, names.reset].flatMap((name) => {
    const value = x.exchange.response.headers[name.toLowerCase()];
    if (value === undefined) return [`${name} absent`];
    return wholeNumber(value) === undefined ? [`${name} ${JSON.stringify(value)} is not a whole number`] : [];
  });
}

function consistencyProblems(x: Classified): string[] {
  const { limit, remaining, reset } = readRateLimitHeaders(x.exchange.response.headers);
  const date = x.dateSeconds;
  return [
    ...missingHeaders(x),
    ...(limit !== undefined && remaining !== undefined && remaining > limit
      ? [`${names.remaining} ${remaining} is above ${names.limit} ${limit}`]
      : []),
    ...(x.status === 429 && remaining !== undefined && remaining !== 0 ? [`${names.remaining} ${remaining} on a 429`] : []),
    ...(reset !== undefined && date !== undefined && reset < date ? [`${names.reset} ${reset} is before the answer's Date (${date})`] : []),
    ...(reset !== undefined && date !== undefined && reset > date + RESET_WITHIN_SECONDS
      ? [`${names.reset} ${reset} is ${reset - date} s after the answer's Date, more than ${RESET_WITHIN_SECONDS}`]
      : []),
  ];
}

/** Each answer alone. */
export function headerJudgments(x: Classified): Judgment[] {
  const missing = missingHeaders(x);
  const judgments: Judgment[] = [];
  if (x.status === 429)
    judgments.push(
      judge(
        sharedClauses.headers429,
        x,
        'carries the three X-RateLimit headers on a 429',
        'all three, whole numbers',
        missing.join('; ') || undefined,
      ),
    );
  if (isSuccess(x.status))
    judgments.push(
      judge(
        sharedClauses.headersOnSuccess,
        x,
        'carries the three X-RateLimit headers on a success',
        'all three, whole numbers',
        missing.join('; ') || undefined,
      ),
    );
  const problems = consistencyProblems(x);
  judgments.push(
    judge(
      sharedClauses.headersConsistent,
      x,
      'carries consistent X-RateLimit headers',
      'Remaining within 0..Limit (0 on a 429), Reset within a minute after Date',
      problems.join('; ') || undefined,
    ),
  );
  const { reset } = readRateLimitHeaders(x.exchange.response.headers);
  if (reset !== undefined && x.dateSeconds !== undefined) {
    const problem =
      reset > MILLISECONDS_THRESHOLD
        ? `${reset} is in milliseconds`
        : reset < x.dateSeconds
          ? `${reset} is before the answer's Date (${x.dateSeconds})`
          : undefined;
    judgments.push(
      judge(
        sharedClauses.resetSeconds,
        x,
        `carries ${names.reset} as Unix seconds not in the past`,
        'Unix seconds at or after Date',
        problem,
      ),
    );
  }
  return judgments;
}

/** An answer against the one before it (same origin, sent after it was answered). */
export function sequenceJudgments(x: Classified, previous: Classified | undefined): Judgment[] {
  if (!previous) return [];
  const now = readRateLimitHeaders(x.exchange.response.headers);
  const before = readRateLimitHeaders(previous.exchange.response.headers);
  const related = [previous.position];
  const judgments: Judgment[] = [];
  if (now.limit !== undefined && before.limit !== undefined) {
    judgments.push(
      judge(
        sharedClauses.limitConstant,
        x,
        `keeps ${names.limit} from one answer to the next`,
        `${before.limit}`,
        now.limit === before.limit ? undefined : `${now.limit}`,
        related,
      ),
    );
  }
  const sentAfter = Date.parse(x.exchange.startedAt) >= Date.parse(previous.exchange.startedAt) + (previous.exchange.durationMs ?? 0);
  const beforeRefill = before.reset !== undefined && x.dateSeconds !== undefined && x.dateSeconds <= before.reset - 2;
  if (!sentAfter || !beforeRefill || now.remaining === undefined || before.remaining === undefined) return judgments;
  const most = Math.max(0, before.remaining - 1);
  judgments.push(
    judge(
      sharedClauses.remainingFalls,
      x,
      `lowers ${names.remaining} by each request before the bucket refills`,
      `at most ${most}`,
      now.remaining <= most ? undefined : `${now.remaining}`,
      related,
    ),
  );
  if (before.remaining === 0 && x.endpoint.kind === 'operation' && x.endpoint.operation === 'redeliver') {
    judgments.push(
      judge(
        sharedClauses.redeliver429,
        x,
        'answers 429 while the bucket is empty',
        '429',
        x.status === 429 ? undefined : `${x.status}`,
        related,
      ),
    );
  }
  return judgments;
}
