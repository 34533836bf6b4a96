// The three X-RateLimit headers of an answer, read as whole numbers (their names from specs/): one
// reader for the pacer, the preflight probe, the run's plot and the rate-limit suites.
import { observed } from '../specs/index.ts';
import type { RateLimitObservation } from './settings.ts';

const names = observed.rate_limit.headers;

/** Reset values above this are in milliseconds, not seconds (a broken target); pace by them anyway. */
const MILLISECONDS_THRESHOLD = 1e11;
const MS_PER_SECOND = 1000;

export interface RateLimitValues {
  limit?: number;
  remaining?: number;
  /** As sent: a Unix time in seconds on a conforming target. */
  reset?: number;
}

/** A header value as a plain non-negative integer; undefined when absent or anything else. */
export function wholeNumber(value: string | undefined): number | undefined {
  const trimmed = value?.trim();
  return trimmed !== undefined && /^\d+$/.test(trimmed) ? Number(trimmed) : undefined;
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

/** What the headers say of the bucket at `atMs`, Reset as a time in milliseconds. */
export function rateLimitObservation(headers: Record<string, string>, atMs: number): RateLimitObservation {
  const { reset, ...counts } = readRateLimitHeaders(headers);
  return { atMs, ...counts, ...(reset !== undefined ? { resetAtMs: reset > MILLISECONDS_THRESHOLD ? reset : reset * MS_PER_SECOND } : {}) };
}
