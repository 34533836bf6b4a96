// The names of the three X-RateLimit headers (observed.rate_limit.headers), for faults that drop
// or rewrite one of them.
import { observed } from '../../../specs/index.ts';

export const RATE_LIMIT_HEADER = observed.rate_limit.headers;

/** Status of a rate-limited answer. */
export const TOO_MANY_REQUESTS = observed.errors.too_many_requests!.status;
