// The three X-RateLimit headers of an answer, read as whole numbers (their names from specs/): one
// reader for the pacer, the preflight probe, the run's plot and the rate-limit suites.
//
// What the pacer may use is judged here, once per answer: a value that is not a whole number, a
// Limit of 0 or one that differs from earlier answers, a Remaining above the Limit, a Reset before
// the answer's Date or more than a day after it (no bucket takes a day to add one request; this
// catches a Reset in milliseconds and one past what a date can hold) is left out and named. A Reset
// within the day is believed, even past observed.rate_limit.reset_within_seconds (which the
// consistency clause checks): a target that says nothing is left for an hour is waited for, or
// reported up front as keeping the suite past its bound, never flooded. The clauses that bear on the headers are checked
// by the rate-limit suites; this only keeps the pacer from sleeping, flooding or crashing on them.
import { observed } from '../specs/index.ts';
import type { RateLimitObservation } from './settings.ts';

const names = observed.rate_limit.headers;
/** A Reset further ahead than this is not the Unix second of the next request. */
const RESET_HORIZON_SECONDS = 86_400;
const MS_PER_SECOND = 1000;

export interface RateLimitValues {
  limit?: number;
  remaining?: number;
  /** As sent: a Unix time in seconds on a conforming target. */
  reset?: number;
}

export type RateLimitHeader = keyof RateLimitValues;

/** A header value as a plain non-negative integer; undefined when absent or anything else. */
export function wholeNumber(value: string | undefined): number | undefined {
  const trimmed = value?.trim();
  return trimmed !== undefined && /^\d{1,15}$/.test(trimmed) ? Number(trimmed) : undefined;
}

/** The three headers of an answer (header names in lower case, as the HTTP client gives them). */
export function readRateLimitHeaders(headers: Record<string, string>): RateLimitValues {
  const [limit, remaining, reset] = [names.limit, names.remaining, names.reset].map((name) => wholeNumber(headers[name.toLowerCase()]));
  return {
    ...(limit !== undefined ? { limit } : {}),
    ...(remaining !== undefined ? { remaining } : {}),
    ...(reset !== undefined ? { reset } : {}),
  };
}

/** A header as sent, for messages: its value (escaped, capped), or "(absent)". */
export function shownHeader(headers: Record<string, string>, header: RateLimitHeader): string {
  const value = headers[names[header].toLowerCase()];
  if (value === undefined) return '(absent)';
  return wholeNumber(value) !== undefined ? value.trim() : JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
}

export interface JudgedRateLimit extends RateLimitObservation {
  /** What is wrong with the values left out, one line each, naming the header and its value. */
  problems: Array<{ header: RateLimitHeader; text: string }>;
}

/**
 * What the headers say of the bucket at `atMs` (when the answer came, on this machine's clock), as
 * far as it is plausible. `knownLimit` is the Limit earlier answers gave. Reset is turned into this
 * machine's time through the answer's Date, so a target whose clock differs is paced right.
 */
export function judgeRateLimitHeaders(headers: Record<string, string>, atMs: number, knownLimit?: number): JudgedRateLimit {
  const problems: JudgedRateLimit['problems'] = [];
  const judged: JudgedRateLimit = { atMs, problems };
  const raw = (header: RateLimitHeader) => headers[names[header].toLowerCase()];
  const number = (header: RateLimitHeader): number | undefined => {
    if (raw(header) === undefined) return undefined;
    const value = wholeNumber(raw(header));
    if (value === undefined) problems.push({ header, text: `${names[header]} ${shownHeader(headers, header)} is not a whole number` });
    return value;
  };
  const limit = number('limit');
  if (limit === 0) problems.push({ header: 'limit', text: `${names.limit} 0 allows nothing` });
  else if (limit !== undefined && knownLimit !== undefined && limit !== knownLimit)
    problems.push({ header: 'limit', text: `${names.limit} ${limit} differs from the ${knownLimit} of earlier answers` });
  else if (limit !== undefined) judged.limit = limit;
  const bound = judged.limit ?? knownLimit;
  const remaining = number('remaining');
  if (remaining !== undefined && bound !== undefined && remaining > bound)
    problems.push({ header: 'remaining', text: `${names.remaining} ${remaining} is above ${names.limit} ${bound}` });
  else if (remaining !== undefined) judged.remaining = remaining;
  const reset = number('reset');
  if (reset !== undefined) {
    const dated = Date.parse(headers.date ?? '');
    const answerMs = Number.isNaN(dated) ? atMs : dated;
    const dateSeconds = Math.floor(answerMs / MS_PER_SECOND);
    if (reset < dateSeconds) {
      problems.push({ header: 'reset', text: `${names.reset} ${reset} is before the answer's time (${dateSeconds})` });
    } else if (reset > dateSeconds + RESET_HORIZON_SECONDS) {
      problems.push({
        header: 'reset',
        text: `${names.reset} ${reset} is more than a day after the answer's time (${dateSeconds}): not the Unix second of the next request`,
      });
    } else {
      judged.resetAtMs = atMs + (reset * MS_PER_SECOND - answerMs);
    }
  }
  return judged;
}

/** What the headers say of the bucket at `atMs`, the implausible values left out. */
export function rateLimitObservation(headers: Record<string, string>, atMs: number): RateLimitObservation {
  const { problems: _problems, ...observation } = judgeRateLimitHeaders(headers, atMs);
  return observation;
}
