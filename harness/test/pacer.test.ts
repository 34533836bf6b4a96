// The pacer against a simulated tenant: a token bucket on a manual clock, shared with another
// client that reads at a steady rate. The suite must leave the other client its part of the bucket
// and of the refill, measure the refill from the headers, wait for Reset when nothing is left, and
// refuse a wait that would outlast the run.
import { describe, expect, it } from 'vitest';
import { HarnessError } from '../errors.ts';
import { RateLimitPacer } from '../pacer.ts';

/** A tenant's rate limit: `limit` requests, refilled continuously at `rate` a second. */
class SimulatedBucket {
  now = Date.UTC(2026, 0, 1);
  #level: number;
  #at = this.now;
  constructor(
    readonly limit: number,
    readonly rate: number,
  ) {
    this.#level = limit;
  }

  #refill(): void {
    this.#level = Math.min(this.limit, this.#level + ((this.now - this.#at) * this.rate) / 1000);
    this.#at = this.now;
  }

  /** One request: its status and rate-limit headers, as the mock and the service send them. */
  take(): { status: number; headers: Record<string, string> } {
    this.#refill();
    const allowed = this.#level >= 1;
    if (allowed) this.#level -= 1;
    const nextAt = this.now + ((1 - (this.#level % 1)) * 1000) / this.rate;
    return {
      status: allowed ? 200 : 429,
      headers: {
        'x-ratelimit-limit': String(this.limit),
        'x-ratelimit-remaining': String(Math.floor(this.#level)),
        'x-ratelimit-reset': String(Math.ceil(nextAt / 1000)),
      },
    };
  }
}

interface Run {
  suiteStatuses: number[];
  suiteRemaining: number[];
  otherStatuses: number[];
  elapsedMs: number;
  pacer: RateLimitPacer;
}

/** The suite sends `requests` paced requests while another client reads every `otherEveryMs`. */
async function shareTenant(
  bucket: SimulatedBucket,
  requests: number,
  options: { share?: number; otherEveryMs?: number; testDouble?: boolean; deadlineMs?: number; declaredRate?: number } = {},
): Promise<Run> {
  const started = bucket.now;
  const other = { next: started, statuses: [] as number[] };
  const advance = (ms: number) => {
    const until = bucket.now + ms;
    // The other client's reads fall wherever they fall in the suite's waits.
    while (options.otherEveryMs !== undefined && other.next <= until) {
      bucket.now = Math.max(bucket.now, other.next);
      other.statuses.push(bucket.take().status);
      other.next += options.otherEveryMs;
    }
    bucket.now = until;
  };
  const pacer = new RateLimitPacer({
    share: options.share ?? 0.5,
    testDouble: options.testDouble ?? false,
    ...(options.declaredRate ? { declared: { refillPerSecond: options.declaredRate } } : {}),
    deadline: started + (options.deadlineMs ?? 3_600_000),
    now: () => bucket.now,
    sleep: async (ms) => advance(ms),
  });
  const run: Run = { suiteStatuses: [], suiteRemaining: [], otherStatuses: other.statuses, elapsedMs: 0, pacer };
  for (let i = 0; i < requests; i += 1) {
    await pacer.beforeSend('GET /api/v2/x');
    const answer = bucket.take();
    advance(20); // a round trip
    pacer.observe(answer.headers, { status: answer.status });
    run.suiteStatuses.push(answer.status);
    run.suiteRemaining.push(Number(answer.headers['x-ratelimit-remaining']));
  }
  run.elapsedMs = bucket.now - started;
  return run;
}

describe('RateLimitPacer sharing a free-tier tenant (10 requests, 2 a second)', () => {
  it('leaves the other client every request it makes, and gets no 429 itself', async () => {
    const run = await shareTenant(new SimulatedBucket(10, 2), 120, { otherEveryMs: 2_000 });
    expect(run.otherStatuses.filter((s) => s === 429)).toEqual([]);
    expect(run.suiteStatuses.filter((s) => s === 429)).toEqual([]);
    expect(run.pacer.unplanned429s).toBe(0);
  });

  it('sends no faster than its share of the refill, past the part of the bucket it may use', async () => {
    const run = await shareTenant(new SimulatedBucket(10, 2), 120);
    // At most (10 - floor 5) at once, then 0.5 x 2 a second.
    const fastest = (run.suiteStatuses.length - 5) / 1;
    expect(run.elapsedMs / 1000).toBeGreaterThanOrEqual(fastest * 0.95);
    // ... and not much slower: the refill rate was measured, not guessed low.
    expect(run.elapsedMs / 1000).toBeLessThan(fastest * 1.35);
  });

  it('goes more carefully when another client hides part of the refill, unless the target file declares it', async () => {
    const measured = await shareTenant(new SimulatedBucket(10, 2), 60, { otherEveryMs: 2_000 });
    const declared = await shareTenant(new SimulatedBucket(10, 2), 60, { otherEveryMs: 2_000, declaredRate: 2 });
    expect(measured.pacer.estimate().refillPerSecond).toBeLessThan(2);
    expect(declared.elapsedMs).toBeLessThan(measured.elapsedMs);
    expect([...declared.suiteStatuses, ...declared.otherStatuses].filter((s) => s === 429)).toEqual([]);
  });

  it('never drives Remaining below the floor left to other clients', async () => {
    const run = await shareTenant(new SimulatedBucket(10, 2), 60);
    expect(Math.min(...run.suiteRemaining)).toBeGreaterThanOrEqual(5);
    expect(run.pacer.estimate()).toMatchObject({ limit: 10, floor: 5, measured: true });
    expect(run.pacer.estimate().refillPerSecond).toBeGreaterThan(1.5);
    expect(run.pacer.estimate().refillPerSecond).toBeLessThanOrEqual(2.05);
  });

  it('with a share of 0.25 (two shards of 0.5), goes about twice as slow', async () => {
    const half = await shareTenant(new SimulatedBucket(10, 2), 60, { share: 0.5 });
    const quarter = await shareTenant(new SimulatedBucket(10, 2), 60, { share: 0.25 });
    expect(quarter.elapsedMs / half.elapsedMs).toBeGreaterThan(1.7);
    expect(Math.min(...quarter.suiteRemaining)).toBeGreaterThanOrEqual(7);
  });

  it('shares a bucket of 2 (burst 2, 2 a second) without a 429 for either client', async () => {
    const run = await shareTenant(new SimulatedBucket(2, 2), 40, { otherEveryMs: 2_000 });
    expect([...run.suiteStatuses, ...run.otherStatuses].filter((s) => s === 429)).toEqual([]);
  });
});

describe('RateLimitPacer against a test double', () => {
  it('uses the whole bucket and waits only when it is empty', async () => {
    const run = await shareTenant(new SimulatedBucket(20, 10), 40, { testDouble: true });
    expect(Math.min(...run.suiteRemaining)).toBe(0);
    expect(run.suiteStatuses.filter((s) => s === 429)).toEqual([]);
    expect(run.pacer.estimate().floor).toBe(0);
  });
});

describe('RateLimitPacer waits', () => {
  const at = (now: number, deadline = now + 600_000) =>
    new RateLimitPacer({ share: 0.5, testDouble: true, deadline, now: () => now, sleep: async () => {} });

  it('does not wait while requests remain', () => {
    const pacer = at(1_000_000);
    pacer.observe({ 'x-ratelimit-limit': '10', 'x-ratelimit-remaining': '3', 'x-ratelimit-reset': '1001' });
    expect(pacer.delayBeforeSend()).toBe(0);
  });

  it('waits until Reset (seconds) when none remain', () => {
    const pacer = at(1_000_000);
    pacer.observe({ 'x-ratelimit-limit': '10', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '1002' });
    expect(pacer.delayBeforeSend()).toBe(2_050);
  });

  it('reads a Reset in milliseconds as milliseconds, for pacing only', () => {
    const pacer = at(1_700_000_000_000);
    pacer.observe({ 'x-ratelimit-limit': '10', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '1700000000500' });
    expect(pacer.delayBeforeSend()).toBe(550);
  });

  it('refuses, with the reason, a wait that would end past the run bound', async () => {
    const pacer = at(1_000_000, 1_000_000 + 30_000);
    pacer.observe({ 'x-ratelimit-limit': '10', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(1_000 + 3_600) });
    const error = await pacer.beforeSend('GET /api/v2/x').then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(HarnessError);
    expect((error as HarnessError).code).toBe('RATE_LIMIT_WAIT');
    expect((error as Error).message).toMatch(
      /GET \/api\/v2\/x: the target's rate limit would keep the suite waiting 3600 s \(X-RateLimit-Remaining 0 of 10, Reset 1970-01-01T01:16:40\.000Z.*\), past the run's time bound \(30 s left\)/,
    );
  });

  it('ignores headers that are absent or not numbers', () => {
    const pacer = at(1_000_000);
    pacer.observe({ 'x-ratelimit-remaining': 'zero' });
    expect(pacer.delayBeforeSend()).toBe(0);
  });

  it('counts 429s it did not ask for', () => {
    const pacer = at(1_000_000);
    pacer.observe({ 'x-ratelimit-remaining': '0' }, { status: 429 });
    pacer.observe({ 'x-ratelimit-remaining': '0' }, { status: 429, planned429: true });
    expect(pacer.unplanned429s).toBe(1);
  });
});
