// Rate-limit profiles: the management API limits the service publishes per subscription
// (observed.rate_limit.profiles), and `unlimited`. A profile also sets the token endpoint's own
// bucket (observed.tokens.rate_limit), which `unlimited` lifts as well.
//
// Which limit a mock gets, first match wins: explicit numbers (`rateLimit`, `--rate-limit 100/5`),
// a profile (`rateLimitProfile`, `--rate-limit free`), the fixtures' `rate_limit`, then a default:
// `production` on the command line (client development: a realistic tenant), and in process
// IN_PROCESS_DEFAULT (tests and the suite's embedded run: a bucket the rate-limit tests empty in
// a moment, and that never slows anything else).
import { observed, type BucketFact } from '../specs/index.ts';
import { MockConfigError } from './config-error.ts';
import type { RateLimitConfig } from './rate-limiter.ts';

export const rateLimitProfileNames = ['free', 'production', 'unlimited'] as const;
export type RateLimitProfile = (typeof rateLimitProfileNames)[number];

export interface RateLimits {
  /** The management interface's bucket (every /api/v2 request). */
  management: RateLimitConfig;
  /** The token endpoint's own bucket. */
  token: RateLimitConfig;
}

/**
 * A bucket no client can empty: unlimited still sends the X-RateLimit headers (clients that read
 * them keep working), with numbers that never run out.
 */
const BOUNDLESS: RateLimitConfig = { bucketSize: 1_000_000_000, refillPerSecond: 1_000_000_000 };

export const IN_PROCESS_DEFAULT: RateLimitConfig = { bucketSize: 200, refillPerSecond: 100 };
export const COMMAND_LINE_DEFAULT_PROFILE: RateLimitProfile = 'production';

const bucketOf = (fact: BucketFact): RateLimitConfig => ({ bucketSize: fact.bucket_size, refillPerSecond: fact.refill_per_second });

export const TOKEN_ENDPOINT_LIMIT = bucketOf(observed.tokens.rate_limit);

export function profileLimits(profile: RateLimitProfile): RateLimits {
  if (profile === 'unlimited') return { management: BOUNDLESS, token: BOUNDLESS };
  return { management: bucketOf(observed.rate_limit.profiles[profile]), token: TOKEN_ENDPOINT_LIMIT };
}

function isRateLimitProfile(value: string): value is RateLimitProfile {
  return (rateLimitProfileNames as readonly string[]).includes(value);
}

/** `free`, `production`, `unlimited`, or explicit numbers `BURST/PER_SECOND` (e.g. 100/5, 2/0.5). */
export function parseRateLimit(text: string): { profile: RateLimitProfile } | { config: RateLimitConfig } {
  if (isRateLimitProfile(text)) return { profile: text };
  const match = /^(\d+)\/(\d+(?:\.\d+)?)$/.exec(text);
  const config = match ? { bucketSize: Number(match[1]), refillPerSecond: Number(match[2]) } : undefined;
  if (
    !config ||
    !Number.isSafeInteger(config.bucketSize) ||
    config.bucketSize < 1 ||
    !(config.refillPerSecond > 0) ||
    !Number.isFinite(config.refillPerSecond)
  ) {
    throw new MockConfigError(
      `option --rate-limit must be ${rateLimitProfileNames.join(', ')} or BURST/PER_SECOND such as 100/5 (got ${JSON.stringify(text)})`,
    );
  }
  return { config };
}
