// Paces the suite's requests to the management interface by the target's rate-limit headers, so
// that the suite shares a tenant with other clients: as fast as the tenant lets it when nobody
// else is using it, slower when someone is, and never taking the part of the bucket it leaves to
// them. See docs/pacing.md for the reasoning and the figures.
//
// The target is a token bucket: X-RateLimit-Limit its size, -Remaining what is left after the
// answer's request, -Reset when the next request is added. Every plausible answer re-anchors the
// pacer's picture of the bucket (rate-limit-headers.ts judges what is plausible). Between answers
// the level is predicted as
//   Remaining then + (refill - others' use) x time since - the suite's own requests since,
// and a request waits until the prediction, less the request itself, keeps the floor:
// Limit x (1 - share), the part of the bucket left to other clients. The suite's own sends thus
// never take Remaining below the floor; only other clients can.
//
//   - The refill is the target file's published figure, else measured as a lower bound: over any
//     stretch of a second or more, the requests that came back (Remaining now - Remaining then +
//     the suite's requests between - 1 for rounding) per second; the highest figure seen stands.
//   - Others' use is what the bucket lost beyond the suite's own requests: over the last stretch of
//     a few seconds, (Remaining then + refill x time - the suite's requests - Remaining now - 1)
//     per second, never below 0. When nobody else reads, it is 0 and the suite runs at the refill;
//     when another client reads, the suite leaves it its rate.
//   - It cannot tell (no refill declared or measured yet, or no usable Limit and Remaining: absent
//     or implausible headers): it sends at a safe rate, share x the refill it knows, or share x the
//     slowest published refill (observed.rate_limit.profiles.free: 1 request a second at the
//     default share), halved after each 429 it did not ask for.
//
// Against a test double (nobody else uses it) the share is 1 and the floor 0: the suite then only
// waits when the bucket is empty. A wait that would end past the run's bound is refused at once
// with the reason, never slept through.
import { observed } from '../specs/index.ts';
import { HarnessError } from './errors.ts';
import { judgeRateLimitHeaders, type RateLimitHeader } from './rate-limit-headers.ts';
import type { DeclaredRateLimit, RateLimitObservation } from './settings.ts';

export interface PacerOptions {
  /** The share of the bucket the suite may use (the rest is the floor), and of the refill when it cannot tell, in (0, 1]. */
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
/** The refill is measured over stretches this far back at most, and over this many answers. */
const MEASURE_WINDOW_MS = 60_000;
const MEASURE_SAMPLES = 200;
/** Others' use is estimated over the last stretch of about this long (longer ones forget a client that stopped slowly). */
const OTHERS_WINDOW_MS = 12_000;
/** The slowest refill any published tier has: what the pacer assumes when nothing says more. */
export const SAFE_REFILL_PER_SECOND = Math.min(...Object.values(observed.rate_limit.profiles).map((p) => p.refill_per_second));
/** Round trips kept: the shortest of them is how long a request surely takes to reach the target. */
const HALF_TRIPS_KEPT = 10;
/** The safe rate is halved after each unplanned 429, down to this. */
const SLOWEST_RATE = 0.05;

interface Sample {
  atMs: number;
  remaining: number;
  /** The suite's requests to the bucket answered up to and including this one. */
  answered: number;
}

export interface PacerEstimate {
  limit?: number;
  refillPerSecond: number;
  /** Where the refill comes from: the target file, a measurement, or the safe default. */
  refillSource: 'declared' | 'measured' | 'default';
  /** Whether the refill was measured (else declared or assumed). */
  measured: boolean;
  /** Requests a second other clients are using, as far as the answers tell. */
  othersPerSecond: number;
  floor: number;
  /** Whether the headers let the pacer read the bucket (else it sends at the safe rate). */
  readsBucket: boolean;
}

/** What the run learnt of the target's rate limit, for the reports. */
export interface PacingReport extends PacerEstimate {
  /** The lowest Remaining of the suite's own paced answers (not the exhaustion's). */
  lowestRemaining?: number;
  /** Headers the pacer could not use, each named once with the first value that was wrong. */
  problems: string[];
}

/** The part of a bucket of `limit` a suite with `share` leaves to other clients. */
export function floorOf(limit: number, share: number): number {
  return Math.min(limit - 1, Math.ceil(limit * (1 - share)));
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
  #last: { remaining: number; atMs: number; answered: number; resetAtMs?: number } | undefined;
  #sent = 0;
  #answered = 0;
  #samples: Sample[] = [];
  #measured: number | undefined;
  #others = 0;
  /** Headers judged implausible once: ignored from then on. */
  readonly #distrusted = new Set<RateLimitHeader>();
  readonly #problems: string[] = [];
  /** The suite's own allowance at the safe rate, when it cannot read the bucket. */
  #allowance = 1;
  #allowanceAt = 0;
  #backoff = 1;
  #lowestRemaining: number | undefined;
  /** When the last paced request was sent, and half the last round trips (the way there). */
  #sentAt: number | undefined;
  #halfTrips: number[] = [];
  #waitedMs = 0;
  #unplanned429s = 0;

  constructor(options: PacerOptions) {
    this.#testDouble = options.testDouble;
    this.share = options.testDouble ? 1 : Math.min(1, Math.max(Number.EPSILON, options.share));
    this.#declared = options.declared ?? {};
    this.#deadline = options.deadline;
    this.#now = options.now ?? Date.now;
    this.#sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
    this.#allowanceAt = this.#now();
    if (options.initial) this.#anchor(options.initial, false);
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
    const rate = this.#rate();
    return {
      ...(this.#limit !== undefined ? { limit: this.#limit } : {}),
      refillPerSecond: rate.perSecond,
      refillSource: rate.source,
      measured: rate.source === 'measured',
      othersPerSecond: this.#others,
      floor: this.#floor(),
      readsBucket: this.#readsBucket(),
    };
  }

  report(): PacingReport {
    return {
      ...this.estimate(),
      ...(this.#lowestRemaining !== undefined ? { lowestRemaining: this.#lowestRemaining } : {}),
      problems: [...this.#problems],
    };
  }

  /** Reads the headers of an answer of the management interface, and counts a 429 that was not planned. */
  observe(headers: Record<string, string>, options: { status?: number; planned429?: boolean } = {}): void {
    this.#answered += 1;
    const unplanned = options.status === 429 && !options.planned429;
    if (unplanned) {
      this.#unplanned429s += 1;
      this.#backoff = Math.max(SLOWEST_RATE / SAFE_REFILL_PER_SECOND, this.#backoff / 2);
    }
    // The bucket was read when the target took the request, about half a round trip after it was
    // sent; a paced request answered alone is dated there (an answer's own arrival would lose the
    // refill of half a round trip on every request).
    const now = this.#now();
    const alone = !options.planned429 && this.#sentAt !== undefined && this.#sent === this.#answered;
    if (alone) this.#halfTrips = [...this.#halfTrips.slice(-(HALF_TRIPS_KEPT - 1)), (now - this.#sentAt!) / 2];
    const takenAt = alone ? (this.#sentAt! + now) / 2 : now;
    const judged = judgeRateLimitHeaders(headers, takenAt, this.#limit);
    for (const problem of judged.problems) {
      if (this.#distrusted.has(problem.header)) continue;
      this.#distrusted.add(problem.header);
      this.#problems.push(problem.text);
    }
    this.#anchor(judged, !options.planned429);
  }

  /**
   * Waits, if need be, before a paced request; refuses a wait that would outlast the run. The delay
   * is worked out again after each wait: requests started at the same moment all wait, and the
   * first to wake is counted before the others look again, so they do not all go at once. A sleep
   * that took less than half its time (a stand-in clock that does not move) is taken as done.
   */
  async beforeSend(what: string): Promise<void> {
    for (let delay = this.delayBeforeSend(); delay > 0; delay = this.delayBeforeSend()) {
      const before = this.#now();
      await this.#wait(delay, what);
      if (this.#now() - before < delay / 2) break;
    }
    this.#takeAllowance();
    this.#sent += 1;
    this.#sentAt = this.#now();
  }

  /** Counts a request sent without pacing (the deliberate exhaustion). */
  sentUnpaced(): void {
    this.#sent += 1;
  }

  /** How long a request sent now should wait. */
  delayBeforeSend(): number {
    const now = this.#now();
    if (!this.#readsBucket()) {
      // Nobody else to leave room for: a test double is only held back by its own 429s.
      if (this.#testDouble) return 0;
      const allowance = this.#allowanceNow(now);
      return allowance >= 1 ? 0 : Math.ceil(((1 - allowance) * 1000) / this.#safeRate());
    }
    const last = this.#last!;
    // Requests sent since that answer (none where answers came without a send: the runner's probe).
    const own = Math.max(0, this.#sent - last.answered);
    const needed = this.#floor() + 1 + own - last.remaining;
    if (needed <= 0) return 0;
    // The bucket gains (refill - others' use) a second, the first request at Reset; a refill not
    // known yet is taken at the safe rate (each answer shows the real level anyway).
    const rate = this.#rate();
    const refill = rate.source === 'default' ? this.#safeRate() : rate.perSecond;
    const gain = Math.max(refill - this.#others, refill * SLOWEST_RATE);
    // The next request comes back by Reset (rounded up to its second) and, where the refill is
    // known, by one refill interval after the answer (Remaining rounds down): the sooner bound.
    const byRefill = last.atMs + 1000 / gain;
    const byReset = last.resetAtMs !== undefined && last.resetAtMs > last.atMs ? last.resetAtMs + RESET_MARGIN_MS : undefined;
    const firstAt = byReset === undefined ? byRefill : rate.source === 'default' ? byReset : Math.min(byReset, byRefill);
    // The target takes the request on its way there: what refills meanwhile counts (the shortest way seen, to be safe).
    const wayThere = this.#halfTrips.length > 0 ? Math.min(...this.#halfTrips) : 0;
    return Math.max(0, Math.ceil(firstAt + ((needed - 1) * 1000) / gain - wayThere - now));
  }

  /** How long to wait before retrying a 429 (after Reset, as the official SDKs do). */
  delayBeforeRetry(): number {
    const now = this.#now();
    const reset = this.#last?.resetAtMs;
    const untilReset = reset !== undefined && reset > now ? reset - now + RESET_MARGIN_MS : 1000 / this.#rate().perSecond;
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
    const last = this.#last;
    const reset = last?.resetAtMs !== undefined ? `, Reset in ${Math.max(0, Math.round((last.resetAtMs - this.#now()) / 1000))} s` : '';
    const rate = this.#rate();
    return `X-RateLimit-Remaining ${last?.remaining ?? '?'} of ${this.#limit ?? '?'}${reset}, floor ${this.#floor()}, refill about ${rate.perSecond.toFixed(2)}/s (${rate.source}), others about ${this.#others.toFixed(2)}/s`;
  }

  /** Takes what an answer (or the runner's probe) says of the bucket, as far as it is plausible. */
  #anchor(observation: RateLimitObservation, ownPacedAnswer: boolean): void {
    if (observation.limit !== undefined && !this.#distrusted.has('limit')) this.#limit ??= observation.limit;
    if (observation.remaining === undefined || this.#distrusted.has('remaining')) return;
    if (ownPacedAnswer) this.#lowestRemaining = Math.min(this.#lowestRemaining ?? Number.POSITIVE_INFINITY, observation.remaining);
    const resetAtMs = this.#distrusted.has('reset') ? undefined : observation.resetAtMs;
    this.#last = {
      remaining: observation.remaining,
      atMs: observation.atMs,
      answered: this.#answered,
      ...(resetAtMs !== undefined ? { resetAtMs } : {}),
    };
    this.#sample({ atMs: observation.atMs, remaining: observation.remaining, answered: this.#answered });
  }

  /** Measures the refill (a lower bound) and others' use from the answers so far. */
  #sample(sample: Sample): void {
    while (
      this.#samples.length > 0 &&
      (this.#samples.length >= MEASURE_SAMPLES || sample.atMs - this.#samples[0]!.atMs > MEASURE_WINDOW_MS)
    )
      this.#samples.shift();
    for (const earlier of this.#samples) {
      const elapsed = sample.atMs - earlier.atMs;
      if (elapsed < MIN_MEASURE_MS) break;
      const cameBack = sample.remaining - earlier.remaining + (sample.answered - earlier.answered) - 1;
      if (cameBack > 0) this.#measured = Math.max(this.#measured ?? 0, cameBack / (elapsed / 1000));
    }
    this.#samples.push(sample);
    this.#estimateOthers(sample);
  }

  /**
   * Others' use over the last stretch in which the bucket was never full (a full bucket wastes its
   * refill, which would read as someone else's use): what the bucket would hold had nobody else
   * used it, less what it holds, less one for the rounding of Remaining, per second.
   */
  #estimateOthers(sample: Sample): void {
    if (this.#limit === undefined) return;
    const full = this.#limit - 1;
    let start: Sample | undefined;
    for (let i = this.#samples.length - 2; i >= 0; i -= 1) {
      const earlier = this.#samples[i]!;
      if (sample.atMs - earlier.atMs > OTHERS_WINDOW_MS || earlier.remaining >= full) break;
      start = earlier;
    }
    if (!start || sample.remaining >= full || sample.atMs - start.atMs < MIN_MEASURE_MS) return;
    const elapsed = (sample.atMs - start.atMs) / 1000;
    const alone = start.remaining + this.#rate().perSecond * elapsed - (sample.answered - start.answered);
    this.#others = Math.max(0, (alone - sample.remaining - 1) / elapsed);
  }

  /** Whether the headers let the pacer read the bucket: a Limit and a Remaining it trusts. */
  #readsBucket(): boolean {
    return this.#limit !== undefined && this.#last !== undefined;
  }

  /** The safe rate, when the pacer cannot tell: share x the refill it knows (else the slowest published), halved after each unplanned 429. */
  #safeRate(): number {
    return Math.max(SLOWEST_RATE, this.share * this.#rate().perSecond * this.#backoff);
  }

  /** The suite's allowance at the safe rate (at most one request: no burst when the bucket cannot be read). */
  #allowanceNow(now: number): number {
    return Math.min(1, this.#allowance + (this.#safeRate() * Math.max(0, now - this.#allowanceAt)) / 1000);
  }

  #takeAllowance(): void {
    const now = this.#now();
    this.#allowance = this.#allowanceNow(now) - 1;
    this.#allowanceAt = now;
  }

  #floor(): number {
    if (this.#testDouble || this.#limit === undefined) return 0;
    return floorOf(this.#limit, this.share);
  }

  #rate(): { perSecond: number; source: PacerEstimate['refillSource'] } {
    // The published figure the target file declares is the refill itself; what is measured is a
    // lower bound of it (other clients' requests hide part of it).
    const declared = this.#declared.refillPerSecond;
    if (declared !== undefined) return { perSecond: declared, source: 'declared' };
    if (this.#measured !== undefined) return { perSecond: this.#measured, source: 'measured' };
    // The next request comes back by Reset: at least one in that time.
    const last = this.#last;
    if (last?.resetAtMs !== undefined && last.resetAtMs > last.atMs && last.remaining === 0)
      return {
        perSecond: Math.max(SLOWEST_RATE, Math.min(SAFE_REFILL_PER_SECOND, 1000 / (last.resetAtMs - last.atMs))),
        source: 'default',
      };
    return { perSecond: SAFE_REFILL_PER_SECOND, source: 'default' };
  }
}
