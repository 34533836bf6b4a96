// Paces the suite's requests to the management interface by the target's rate-limit headers, so
// that the suite shares a tenant with other clients instead of starving them.
//
// The target is a token bucket (X-RateLimit-Limit is its size, -Remaining what is left, -Reset
// the Unix second at which the next request is added). From those headers the pacer keeps an
// estimate of the bucket and of its refill rate, and before each request waits until
//   1. the bucket would still hold `floor` requests after it: the floor is the part of the bucket
//      left to other clients, Limit x (1 - share); and
//   2. the suite's own allowance, a bucket of (Limit - floor) refilled at share x the refill rate,
//      holds one: over any stretch of time the suite sends at most its share of the refill
//      (the published figure the target file declares, else the measured lower bound).
// The refill rate is measured as a lower bound: over any stretch of a second or more, the
// requests that came back (Remaining now, minus Remaining then, plus the suite's requests in
// between, less one for the rounding of Remaining) divided by the time. A full bucket and other
// clients' requests only make a stretch's figure lower, so the highest figure seen is still a
// lower bound of the refill, and the estimate never falls. Until it is measured, the rate is
// the target file's, or a careful guess from Reset (one request a second at most).
//
// Against a test double (nobody else uses it) the share is 1 and the floor 0: the suite then only
// waits when the bucket is empty. A wait that would end past the run's bound is refused at once
// with the reason, never slept through.
import { observed } from '../specs/index.ts';
import { HarnessError } from './errors.ts';
import { rateLimitObservation } from './rate-limit-headers.ts';
import type { DeclaredRateLimit, RateLimitObservation } from './settings.ts';

export interface PacerOptions {
  /** The share of the refill rate and of the bucket the suite may use, in (0, 1]. */
  share: number;
  /** A test double: share 1, floor 0. */
  testDouble: boolean;
  declared?: DeclaredRateLimit;
  /** When the run must be over (ms since epoch): no wait may end after it. */
  deadline: number;
  initial?: RateLimitObservation;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

/** Extra time after Reset, for the server's clock and the header's whole-second precision. */
const RESET_MARGIN_MS = 50;
/** A measured stretch is at least this long; shorter ones are all rounding. */
const MIN_MEASURE_MS = 1_000;
/** Stretches look back this far at most, and over this many answers. */
const MEASURE_WINDOW_MS = 60_000;
const MEASURE_SAMPLES = 200;
/** When nothing else is known, the bucket is assumed to refill one request a second at most. */
const DEFAULT_RATE = 1;

interface Sample {
  atMs: number;
  remaining: number;
  /** The suite's requests to the bucket up to and including this one. */
  sent: number;
}

export interface PacerEstimate {
  limit?: number;
  refillPerSecond: number;
  /** Whether the refill rate was measured (else declared or guessed). */
  measured: boolean;
  floor: number;
}

export class RateLimitPacer {
  readonly retries = observed.rate_limit.sdk_retry.attempts;
  readonly share: number;
  readonly #testDouble: boolean;
  readonly #declared: DeclaredRateLimit;
  readonly #deadline: number;
  readonly #now: () => number;
  readonly #sleep: (ms: number) => Promise<void>;
  #limit: number | undefined;
  #remaining: number | undefined;
  #observedAt = 0;
  #resetAtMs: number | undefined;
  #sent = 0;
  #samples: Sample[] = [];
  #measured: number | undefined;
  #allowance: number | undefined;
  #allowanceAt = 0;
  #waitedMs = 0;
  #unplanned429s = 0;

  constructor(options: PacerOptions) {
    this.#testDouble = options.testDouble;
    this.share = options.testDouble ? 1 : Math.min(1, Math.max(Number.EPSILON, options.share));
    this.#declared = options.declared ?? {};
    this.#deadline = options.deadline;
    this.#now = options.now ?? Date.now;
    this.#sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
    if (options.initial) this.#record(options.initial, false);
  }

  /** Time spent waiting for the target's rate limit. */
  get waitedMs(): number {
    return this.#waitedMs;
  }

  /** 429s the suite received where it did not spend the limit on purpose. */
  get unplanned429s(): number {
    return this.#unplanned429s;
  }

  estimate(): PacerEstimate {
    return {
      ...(this.#limit !== undefined ? { limit: this.#limit } : {}),
      refillPerSecond: this.#rate(),
      measured: this.#measured !== undefined,
      floor: this.#floor(),
    };
  }

  /** Reads the headers of an answer of the management interface, and counts a 429 that was not planned. */
  observe(headers: Record<string, string>, options: { status?: number; planned429?: boolean } = {}): void {
    if (options.status === 429 && !options.planned429) this.#unplanned429s += 1;
    this.#record(rateLimitObservation(headers, this.#now()), true);
  }

  /** Waits, if need be, before a paced request; refuses a wait that would outlast the run. */
  async beforeSend(what: string): Promise<void> {
    const delay = this.delayBeforeSend();
    if (delay > 0) await this.#wait(delay, what);
    this.#takeAllowance();
  }

  /** Counts a request sent without pacing (the deliberate exhaustion). */
  sentUnpaced(): void {
    this.#sent += 1;
  }

  /** How long a request sent now should wait. */
  delayBeforeSend(): number {
    if (this.#remaining === undefined || this.#limit === undefined) return 0;
    const now = this.#now();
    const floor = this.#floor();
    const rate = this.#rate();
    let bucketAt = now;
    const needed = floor + 1 - this.#remaining;
    if (needed > 0) {
      // No request comes back before Reset; after it, one every 1/rate seconds.
      const firstAt =
        this.#resetAtMs !== undefined && this.#resetAtMs > this.#observedAt ? this.#resetAtMs + RESET_MARGIN_MS : this.#observedAt;
      bucketAt = firstAt + ((needed - 1) * 1000) / rate;
    }
    // A test double has no other client to leave room for: only the bucket itself holds the suite back.
    const allowance = this.#testDouble ? Number.POSITIVE_INFINITY : this.#allowanceNow(now);
    const allowanceAt = allowance >= 1 ? now : now + ((1 - allowance) * 1000) / (this.share * rate);
    return Math.max(0, Math.ceil(Math.max(bucketAt, allowanceAt) - now));
  }

  /** How long to wait before retrying a 429 (after Reset, as the official SDKs do). */
  delayBeforeRetry(): number {
    const now = this.#now();
    const untilReset = this.#resetAtMs === undefined ? 1000 / this.#rate() : this.#resetAtMs - now + RESET_MARGIN_MS;
    return Math.max(0, Math.ceil(untilReset));
  }

  /** Waits before retrying a 429, within the run's bound. */
  async beforeRetry(what: string): Promise<void> {
    await this.#wait(this.delayBeforeRetry(), what);
  }

  async #wait(ms: number, what: string): Promise<void> {
    if (this.#now() + ms > this.#deadline) {
      const left = Math.max(0, Math.round((this.#deadline - this.#now()) / 1000));
      throw new HarnessError(
        'RATE_LIMIT_WAIT',
        `${what}: the target's rate limit would keep the suite waiting ${Math.round(ms / 1000)} s (${this.#describeState()}), past the run's time bound (${left} s left)`,
      );
    }
    this.#waitedMs += ms;
    await this.#sleep(ms);
  }

  #describeState(): string {
    const reset = this.#resetAtMs !== undefined ? `, Reset ${new Date(this.#resetAtMs).toISOString()}` : '';
    return `X-RateLimit-Remaining ${this.#remaining ?? '?'} of ${this.#limit ?? '?'}${reset}, floor ${this.#floor()}, refill about ${this.#rate().toFixed(2)}/s`;
  }

  #record(observation: RateLimitObservation, sample: boolean): void {
    if (observation.limit !== undefined) this.#limit = observation.limit;
    if (observation.remaining === undefined) return;
    this.#remaining = observation.remaining;
    this.#observedAt = observation.atMs;
    this.#resetAtMs = observation.resetAtMs;
    if (this.#allowance === undefined && this.#limit !== undefined) {
      // The suite starts with its share of what is left, never more than the bucket above the floor.
      this.#allowance = Math.max(0, Math.min(this.#limit - this.#floor(), observation.remaining - this.#floor()));
      this.#allowanceAt = observation.atMs;
    }
    if (sample) this.#sample(observation.atMs, observation.remaining);
  }

  #sample(atMs: number, remaining: number): void {
    const sample = { atMs, remaining, sent: this.#sent };
    while (this.#samples.length > 0 && (this.#samples.length >= MEASURE_SAMPLES || atMs - this.#samples[0]!.atMs > MEASURE_WINDOW_MS))
      this.#samples.shift();
    for (const earlier of this.#samples) {
      const elapsed = atMs - earlier.atMs;
      if (elapsed < MIN_MEASURE_MS) break;
      const cameBack = remaining - earlier.remaining + (sample.sent - earlier.sent) - 1;
      if (cameBack > 0) this.#measured = Math.max(this.#measured ?? 0, cameBack / (elapsed / 1000));
    }
    this.#samples.push(sample);
  }

  #takeAllowance(): void {
    this.#sent += 1;
    if (this.#allowance === undefined) return;
    this.#allowance = this.#allowanceNow(this.#now()) - 1;
    this.#allowanceAt = this.#now();
  }

  #allowanceNow(now: number): number {
    if (this.#allowance === undefined || this.#limit === undefined) return Number.POSITIVE_INFINITY;
    const capacity = Math.max(1, this.#limit - this.#floor());
    return Math.min(capacity, this.#allowance + (this.share * this.#rate() * Math.max(0, now - this.#allowanceAt)) / 1000);
  }

  #floor(): number {
    if (this.#testDouble || this.#limit === undefined) return 0;
    return Math.min(this.#limit - 1, Math.ceil(this.#limit * (1 - this.share)));
  }

  #rate(): number {
    // The published figure the target file declares is the refill itself; what is measured is a
    // lower bound of it (other clients' requests hide part of it).
    const declared = this.#declared.refillPerSecond;
    if (declared !== undefined) return declared;
    if (this.#measured !== undefined) return this.#measured;
    if (this.#resetAtMs !== undefined && this.#resetAtMs > this.#observedAt) {
      // The next request comes back by Reset: at least one in that time (never more than the default).
      return Math.max(DEFAULT_RATE / 100, Math.min(DEFAULT_RATE, 1000 / (this.#resetAtMs - this.#observedAt)));
    }
    return DEFAULT_RATE;
  }
}
