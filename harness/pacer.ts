// Paces requests by the target's rate-limit headers, as the official SDKs do: when a response
// says no request is left, the next request waits until X-RateLimit-Reset (bounded), and a 429
// is retried after Reset at most twice. Pacing is the harness being polite; it asserts nothing.
import { observed } from '../specs/index.ts';

export interface PacerOptions {
  maxWaitMs: number;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

/** Extra time after Reset, for the server's clock and the header's whole-second precision. */
const RESET_MARGIN_MS = 50;
/** Reset values above this are in milliseconds, not seconds (a broken target); pace by them anyway. */
const MILLISECONDS_THRESHOLD = 1e11;

export class RateLimitPacer {
  readonly maxWaitMs: number;
  readonly retries = observed.rate_limit.sdk_retry.attempts;
  readonly #now: () => number;
  readonly #sleep: (ms: number) => Promise<void>;
  #remaining: number | undefined;
  #resetAtMs: number | undefined;
  #waitedMs = 0;

  constructor(options: PacerOptions) {
    this.maxWaitMs = options.maxWaitMs;
    this.#now = options.now ?? Date.now;
    this.#sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
  }

  /** Total time spent waiting for rate-limit resets. */
  get waitedMs(): number {
    return this.#waitedMs;
  }

  observe(headers: Record<string, string>): void {
    const names = observed.rate_limit.headers;
    const remaining = Number.parseInt(headers[names.remaining.toLowerCase()] ?? '', 10);
    const reset = Number.parseInt(headers[names.reset.toLowerCase()] ?? '', 10);
    if (!Number.isFinite(remaining) || !Number.isFinite(reset)) return;
    this.#remaining = remaining;
    this.#resetAtMs = reset > MILLISECONDS_THRESHOLD ? reset : reset * 1000;
  }

  /** How long a request sent now should wait, given what the last response said. */
  delayBeforeSend(): number {
    if (this.#remaining === undefined || this.#remaining > 0 || this.#resetAtMs === undefined) return 0;
    return this.#boundedDelayUntilReset();
  }

  /** How long to wait before retrying a 429. */
  delayBeforeRetry(): number {
    return this.#resetAtMs === undefined ? Math.min(1000, this.maxWaitMs) : this.#boundedDelayUntilReset();
  }

  async wait(ms: number): Promise<void> {
    if (ms <= 0) return;
    this.#waitedMs += ms;
    await this.#sleep(ms);
    // After waiting, what the last response said is stale: the next response tells again.
    this.#remaining = undefined;
  }

  #boundedDelayUntilReset(): number {
    const delay = this.#resetAtMs! - this.#now() + RESET_MARGIN_MS;
    return Math.max(0, Math.min(delay, this.maxWaitMs));
  }
}
