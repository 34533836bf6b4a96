// Reads the three X-RateLimit headers of an exchange as integers (undefined when absent or not
// a plain non-negative integer). Plumbing for the rate-limit suites.
import type { Exchange } from '../../harness/index.ts';
import { observed } from '../../specs/index.ts';

export interface RateLimitHeaders {
  limit?: number;
  remaining?: number;
  reset?: number;
  raw: string;
}

const names = observed.rate_limit.headers;

function integer(value: string | undefined): number | undefined {
  return value !== undefined && /^\d+$/.test(value.trim()) ? Number(value.trim()) : undefined;
}

export function rateLimitOf(exchange: Exchange): RateLimitHeaders {
  const value = (name: string) => exchange.headers[name.toLowerCase()];
  const out: RateLimitHeaders = {
    raw: [names.limit, names.remaining, names.reset].map((n) => `${n}: ${value(n) ?? '(absent)'}`).join('; '),
  };
  const limit = integer(value(names.limit));
  const remaining = integer(value(names.remaining));
  const reset = integer(value(names.reset));
  if (limit !== undefined) out.limit = limit;
  if (remaining !== undefined) out.remaining = remaining;
  if (reset !== undefined) out.reset = reset;
  return out;
}

export const rateLimitHeaderNames = [names.limit, names.remaining, names.reset].map((n) => n.toLowerCase());

/** Which of the three headers an answer lacks, or carries as something other than a whole number. */
export function rateLimitProblems(exchange: Exchange): string[] {
  return [names.limit, names.remaining, names.reset].flatMap((name) => {
    const value = exchange.headers[name.toLowerCase()];
    if (value === undefined) return [`${name} absent`];
    return integer(value) === undefined ? [`${name} ${JSON.stringify(value)} is not a whole number`] : [];
  });
}
