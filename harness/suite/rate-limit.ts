// Reads the three X-RateLimit headers of an exchange as integers (undefined when absent or not
// a plain non-negative integer), and what they say of each other. Plumbing for the rate-limit suites.
import { shown } from '../expect.ts';
import type { Exchange } from '../http.ts';
import { readRateLimitHeaders, wholeNumber } from '../rate-limit-headers.ts';
import { observed } from '../../specs/index.ts';

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
