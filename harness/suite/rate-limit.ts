// Reads the three X-RateLimit headers of an exchange as integers (undefined when absent or not
// a plain non-negative integer), and what they say of each other. Plumbing for the rate-limit suites.
import { expectNoProblems, shown } from '../expect.ts';
import type { Exchange } from '../http.ts';
import { readRateLimitHeaders, wholeNumber } from '../rate-limit-headers.ts';
import type { TargetSession } from '../session.ts';
import { card } from '../../specs/cards/index.ts';
import { observed, operationKeys } from '../../specs/index.ts';
import { fromItsRoute } from './requests.ts';

export interface RateLimitHeaders {
  limit?: number;
  remaining?: number;
  reset?: number;
  raw: string;
}

const names = observed.rate_limit.headers;

export function rateLimitOf(exchange: Exchange): RateLimitHeaders {
  const raw = [names.limit, names.remaining, names.reset].map((n) => `${n}: ${exchange.headers[n.toLowerCase()] ?? '(absent)'}`).join('; ');
  return { ...readRateLimitHeaders(exchange.headers), raw };
}

/** Each header's name as the HTTP client gives it (lower case), by what it says. */
export const rateLimitHeader = {
  limit: names.limit.toLowerCase(),
  remaining: names.remaining.toLowerCase(),
  reset: names.reset.toLowerCase(),
};

export const rateLimitHeaderNames = [rateLimitHeader.limit, rateLimitHeader.remaining, rateLimitHeader.reset];

/** Which of the three headers an answer lacks, or carries as something other than a whole number. */
export function rateLimitProblems(exchange: Exchange): string[] {
  return [names.limit, names.remaining, names.reset].flatMap((name) => {
    const value = exchange.headers[name.toLowerCase()];
    if (value === undefined) return [`${name} absent`];
    return wholeNumber(value) === undefined ? [`${name} ${JSON.stringify(value)} is not a whole number`] : [];
  });
}

/** The answer's own time in Unix seconds (its Date header; the suite's clock without one), so clock skew does not matter. */
export function answerSecondsOf(exchange: Exchange): number {
  const dated = Date.parse(exchange.headers.date ?? '');
  return Math.floor((Number.isNaN(dated) ? Date.now() : dated) / 1000);
}

const RESET_WITHIN_SECONDS = observed.rate_limit.reset_within_seconds.value;

/**
 * What is wrong with an answer's headers as a whole: any missing or not a whole number, Remaining
 * above Limit or, on a 429, above 0, Reset before the answer's Date or more than a minute after it.
 */
export function rateLimitConsistencyProblems(exchange: Exchange): string[] {
  const { limit, remaining, reset } = rateLimitOf(exchange);
  const date = answerSecondsOf(exchange);
  return [
    ...rateLimitProblems(exchange),
    ...(limit !== undefined && limit < 1 ? [`${names.limit} ${limit} allows nothing`] : []),
    ...(limit !== undefined && remaining !== undefined && remaining > limit
      ? [`${names.remaining} ${remaining} is above ${names.limit} ${limit}`]
      : []),
    ...(exchange.status === 429 && remaining !== undefined && remaining !== 0 ? [`${names.remaining} ${remaining} on a 429`] : []),
    ...(reset !== undefined && reset < date ? [`${names.reset} ${reset} is before the answer's Date (${date})`] : []),
    ...(reset !== undefined && reset > date + RESET_WITHIN_SECONDS
      ? [`${names.reset} ${reset} is ${reset - date} s after the answer's Date (${date}), more than ${RESET_WITHIN_SECONDS}`]
      : []),
  ];
}

/** What is wrong with an answer's Reset as a Unix time in seconds: not one at all, or before the answer's Date. */
export function resetProblems(exchange: Exchange): string[] {
  const reset = rateLimitOf(exchange).reset;
  const now = answerSecondsOf(exchange);
  const plausible = reset !== undefined && reset > 1e9 && reset < 1e11;
  const problems = [...(plausible ? [] : ['not Unix seconds']), ...(plausible && reset < now ? [`before the answer's Date (${now})`] : [])];
  return problems.map((p) => `${names.reset} ${shown(exchange.headers[names.reset.toLowerCase()])}: ${p}`);
}

/** The rises of Remaining between answers of one bucket past what the refill allows (see expectNoRemainingRises). */
function remainingRises(answers: readonly Exchange[], refillPerSecond: number): string[] {
  const problems: string[] = [];
  const read = answers
    .map((exchange) => ({ exchange, ...rateLimitOf(exchange) }))
    .filter(({ remaining, limit }) => remaining !== undefined && limit !== undefined)
    .sort((a, b) => a.exchange.at - b.exchange.at);
  let before = -1;
  for (let index = 0; index < read.length; index += 1) {
    const later = read[index]!;
    const sentAt = later.exchange.at - later.exchange.ms;
    // The last answer that came before this request was sent: the target took the two in that order.
    while (before + 1 < index && read[before + 1]!.exchange.at <= sentAt) before += 1;
    if (before < 0) continue;
    const earlier = read[before]!;
    if (earlier.limit !== later.limit) continue;
    // From when the earlier request was sent to when the later answer came: the most time between the two reads of the bucket.
    const ms = later.exchange.at - (earlier.exchange.at - earlier.exchange.ms);
    const most = earlier.remaining! + Math.ceil((refillPerSecond * (ms + 1000)) / 1000) + 1;
    if (later.remaining! > most) {
      problems.push(
        `${names.remaining} ${earlier.remaining} then ${later.remaining} ${ms} ms later (${later.exchange.request.method} ${new URL(later.exchange.request.url).pathname}, ${later.exchange.status}): at most ${most}`,
      );
    }
  }
  return problems;
}

const fromRouteOf = operationKeys.map((op) => ({ op, fromIt: fromItsRoute(card(op)) }));

/**
 * Remaining is what is left of a bucket that only requests take from and only the refill adds to
 * (observed: a token bucket refilled every second), so between two answers of an operation it
 * rises by no more than the refill over the time between: from when the first answer's request was
 * sent to when the second answer came, plus one whole second of refill (a bucket topped up once a
 * second) and one for rounding. Only pairs where the second request was sent after the first answer
 * came are compared, so the target took them in that order. Each operation is read apart (the
 * reference has one bucket per tenant; a reading with one per operation is held to the same rule),
 * and other clients of a tenant only take tokens. `refillPerSecond` must be the stated rate: a
 * measured one is read from these same headers.
 */
export function expectNoRemainingRises(target: TargetSession, refillPerSecond: number): void {
  const byOperation = fromRouteOf.map(({ op, fromIt }) => ({ op, answers: target.answers.filter(fromIt) }));
  const compared = byOperation.reduce((sum, { answers }) => sum + answers.length, 0);
  target.needs(compared > 1, 'fewer than two answers of an operation came before this test (run alone, it has nothing to read)');
  const problems = byOperation.flatMap(({ op, answers }) => remainingRises(answers, refillPerSecond).map((problem) => `${op}: ${problem}`));
  expectNoProblems(
    problems.slice(0, 5).concat(problems.length > 5 ? [`and ${problems.length - 5} more`] : []),
    `over ${compared} answers of the operations, ${names.remaining} rising between two answers of an operation by at most the stated refill (${refillPerSecond}/s) over the time between, a second's refill more and one`,
  );
}

/** The refill rate the target file states; the test cannot run on a measured one (it is read from the headers judged) or an assumed one. */
export function statedRefill(target: TargetSession): number {
  const estimate = target.runtime.pacer.estimate();
  target.needs(
    estimate.refillSource === 'declared',
    'the target file states no refill rate (rate_limit.refill_per_second): a measured one is read from the headers this test judges',
    'not-applicable',
  );
  return estimate.refillPerSecond;
}
