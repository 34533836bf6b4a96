// The pacer against a simulated tenant: a token bucket on a manual clock, alone or shared with
// another client that reads at a steady rate. Quiet, the suite runs at the refill; beside another
// client, it leaves that client its rate and the floor, so the client never meets a 429; it
// measures the refill from the headers where the target file does not declare it; where it cannot
// read the bucket (no headers, or headers it cannot believe, each named once) it sends at the safe
// rate; it waits for Reset when nothing is left, and refuses a wait that would outlast the run.
import { describe, expect, it } from 'vitest';
import { HarnessError } from '../errors.ts';
import { floorOf, RateLimitPacer, SAFE_REFILL_PER_SECOND } from '../pacer.ts';

/** A tenant's rate limit: `limit` requests, refilled continuously at `rate` a second. */
class SimulatedBucket {
  now = Date.UTC(2026, 0, 1);
  #level: number;
  #at = this.now;
  constructor(
    readonly limit: number,
    readonly rate: number,
    /** Changes the headers an answer carries (a misbehaving target). */
    readonly edit: (headers: Record<string, string>) => Record<string, string> = (h) => h,
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
      headers: this.edit({
        'x-ratelimit-limit': String(this.limit),
        'x-ratelimit-remaining': String(Math.floor(this.#level)),
        'x-ratelimit-reset': String(Math.ceil(nextAt / 1000)),
        date: new Date(this.now).toUTCString(),
      }),
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

interface ShareOptions {
  share?: number;
  /** Another client reads every this many ms (from `otherFromMs` on). */
  otherEveryMs?: number;
  otherFromMs?: number;
  testDouble?: boolean;
  deadlineMs?: number;
  declaredRate?: number;
  roundTripMs?: number;
}

/** The suite sends `requests` paced requests, one at a time, while another client reads every `otherEveryMs`. */
async function shareTenant(bucket: SimulatedBucket, requests: number, options: ShareOptions = {}): Promise<Run> {
  const started = bucket.now;
  const other = { next: started + (options.otherFromMs ?? 0), statuses: [] as number[] };
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
    // A round trip of `roundTripMs`, the target taking the request halfway.
    advance((options.roundTripMs ?? 20) / 2);
    const answer = bucket.take();
    advance((options.roundTripMs ?? 20) / 2);
    pacer.observe(answer.headers, { status: answer.status });
    run.suiteStatuses.push(answer.status);
    run.suiteRemaining.push(Number(answer.headers['x-ratelimit-remaining']));
  }
  run.elapsedMs = bucket.now - started;
  return run;
}

const tooMany = (statuses: number[]) => statuses.filter((s) => s === 429).length;
/** The physical floor of `requests` on a bucket: what it holds above the floor at once, then the refill. */
const fastest = (requests: number, limit: number, rate: number, floor: number) => (requests - (limit - floor)) / rate;

describe('RateLimitPacer alone on a free-tier tenant (10 requests, 2 a second)', () => {
  it('runs at the refill, keeping the floor, when the target file declares the refill', async () => {
    const run = await shareTenant(new SimulatedBucket(10, 2), 150, { declaredRate: 2 });
    expect(run.elapsedMs / 1000).toBeLessThan(fastest(150, 10, 2, 5) * 1.1);
    expect(Math.min(...run.suiteRemaining)).toBe(5);
    expect(tooMany(run.suiteStatuses)).toBe(0);
    expect(run.pacer.report()).toMatchObject({ limit: 10, floor: 5, refillSource: 'declared', lowestRemaining: 5, problems: [] });
  });

  it('measures the refill where nothing declares it, and comes close to it', async () => {
    const run = await shareTenant(new SimulatedBucket(10, 2), 150);
    expect(run.elapsedMs / 1000).toBeLessThan(fastest(150, 10, 2, 5) * 1.25);
    expect(Math.min(...run.suiteRemaining)).toBeGreaterThanOrEqual(5);
    expect(run.pacer.estimate()).toMatchObject({ refillSource: 'measured', measured: true });
    expect(run.pacer.estimate().refillPerSecond).toBeGreaterThan(1.5);
    expect(run.pacer.estimate().refillPerSecond).toBeLessThanOrEqual(2.05);
  });

  it('sees nobody else', async () => {
    const run = await shareTenant(new SimulatedBucket(10, 2), 60, { declaredRate: 2 });
    expect(run.pacer.estimate().othersPerSecond).toBeLessThan(0.1);
  });

  it("on a bucket of 2 runs at the refill, not at Reset's whole seconds", async () => {
    const run = await shareTenant(new SimulatedBucket(2, 2), 60, { declaredRate: 2 });
    expect(run.elapsedMs / 1000).toBeLessThan(fastest(60, 2, 2, 1) * 1.15);
    expect(Math.min(...run.suiteRemaining)).toBe(1);
  });

  it.each([
    [10, 5],
    [2, 1],
  ])(
    'over round trips of 200 ms, runs at the refill of a bucket of %i without its own answers showing less than the floor (%i)',
    async (limit, floor) => {
      const run = await shareTenant(new SimulatedBucket(limit, 2), 100, { declaredRate: 2, roundTripMs: 200 });
      expect(run.elapsedMs / 1000).toBeLessThan(fastest(100, limit, 2, floor) * 1.15);
      expect(Math.min(...run.suiteRemaining)).toBe(floor);
    },
  );

  it('keeps the floor with requests sent at the same moment (a test of requests that overlap), each waiting its own turn', async () => {
    const bucket = new SimulatedBucket(10, 2);
    const run = await shareTenant(bucket, 20, { declaredRate: 2 });
    const remaining: number[] = [];
    const sendOne = async () => {
      await run.pacer.beforeSend('GET /api/v2/x');
      const answer = bucket.take();
      run.pacer.observe(answer.headers, { status: answer.status });
      remaining.push(Number(answer.headers['x-ratelimit-remaining']));
    };
    for (let burst = 0; burst < 5; burst += 1) await Promise.all([sendOne(), sendOne(), sendOne()]);
    expect(remaining).toHaveLength(15);
    expect(Math.min(...remaining)).toBe(5);
  });

  it('with a share of 0.25 (two shards of 0.5), leaves a larger floor', async () => {
    const run = await shareTenant(new SimulatedBucket(10, 2), 60, { share: 0.25, declaredRate: 2 });
    expect(floorOf(10, 0.25)).toBe(8);
    expect(Math.min(...run.suiteRemaining)).toBe(8);
  });
});

describe('RateLimitPacer beside another client reading every 2 s', () => {
  it('leaves it every request it makes, gets no 429 itself, and takes the rest of the refill', async () => {
    const run = await shareTenant(new SimulatedBucket(10, 2), 150, { otherEveryMs: 2_000, declaredRate: 2 });
    expect(tooMany(run.otherStatuses)).toBe(0);
    expect(tooMany(run.suiteStatuses)).toBe(0);
    expect(run.pacer.unplanned429s).toBe(0);
    // The refill less the other client's half a request a second, not the old fixed half of it.
    expect(run.elapsedMs / 1000).toBeLessThan(fastest(150, 10, 1.5, 5) * 1.15);
    expect(run.elapsedMs / 1000).toBeGreaterThan(fastest(150, 10, 2, 5));
    expect(run.pacer.estimate().othersPerSecond).toBeGreaterThan(0.25);
    expect(run.pacer.estimate().othersPerSecond).toBeLessThan(0.75);
  });

  it('takes Remaining below the floor only by what the other client took meanwhile', async () => {
    const run = await shareTenant(new SimulatedBucket(10, 2), 120, { otherEveryMs: 2_000, declaredRate: 2 });
    expect(Math.min(...run.suiteRemaining)).toBeGreaterThanOrEqual(4);
  });

  it('does the same where it measures the refill', async () => {
    const run = await shareTenant(new SimulatedBucket(10, 2), 120, { otherEveryMs: 2_000 });
    expect(tooMany([...run.otherStatuses, ...run.suiteStatuses])).toBe(0);
    expect(run.elapsedMs / 1000).toBeLessThan(fastest(120, 10, 1.5, 5) * 1.3);
  });

  it('backs off when the other client starts, halfway', async () => {
    const quiet = await shareTenant(new SimulatedBucket(10, 2), 120, { declaredRate: 2 });
    const joined = await shareTenant(new SimulatedBucket(10, 2), 120, { declaredRate: 2, otherEveryMs: 2_000, otherFromMs: 30_000 });
    expect(tooMany(joined.otherStatuses)).toBe(0);
    expect(joined.elapsedMs).toBeGreaterThan(quiet.elapsedMs + 5_000);
  });

  it('shares a bucket of 2 (burst 2, 2 a second) without a 429 for either client', async () => {
    const run = await shareTenant(new SimulatedBucket(2, 2), 60, { otherEveryMs: 2_000, declaredRate: 2 });
    expect(tooMany([...run.suiteStatuses, ...run.otherStatuses])).toBe(0);
  });

  it('shares a production bucket (50, 16 a second) with a busier client, 4 reads a second', async () => {
    const run = await shareTenant(new SimulatedBucket(50, 16), 400, { otherEveryMs: 250, declaredRate: 16 });
    expect(tooMany([...run.suiteStatuses, ...run.otherStatuses])).toBe(0);
    expect(run.elapsedMs / 1000).toBeLessThan(fastest(400, 50, 12, 25) * 1.2);
  });
});

describe('RateLimitPacer against a test double', () => {
  it('uses the whole bucket and waits only when it is empty', async () => {
    const run = await shareTenant(new SimulatedBucket(20, 10), 40, { testDouble: true });
    expect(Math.min(...run.suiteRemaining)).toBe(0);
    expect(tooMany(run.suiteStatuses)).toBe(0);
    expect(run.pacer.estimate().floor).toBe(0);
  });

  it('is not held back where it sends no headers', async () => {
    const run = await shareTenant(new SimulatedBucket(1000, 10, () => ({})), 20, { testDouble: true });
    expect(run.elapsedMs).toBe(20 * 20);
  });
});

describe('RateLimitPacer where it cannot read the bucket', () => {
  const safeRate = 0.5 * SAFE_REFILL_PER_SECOND;

  it('sends at the documented safe rate without rate-limit headers (share x the slowest published refill)', async () => {
    const run = await shareTenant(new SimulatedBucket(1000, 100, () => ({})), 21);
    expect(safeRate).toBe(1);
    expect(run.elapsedMs / 1000).toBeGreaterThan(20 / safeRate - 0.1);
    expect(run.elapsedMs / 1000).toBeLessThan(20 / safeRate + 1);
    expect(run.pacer.report()).toMatchObject({ readsBucket: false, refillSource: 'default', problems: [] });
  });

  it('halves the safe rate after each 429 it did not ask for', async () => {
    const run = await shareTenant(new SimulatedBucket(3, 0.2, () => ({})), 12);
    expect(tooMany(run.suiteStatuses)).toBeGreaterThan(0);
    const afterFirst = run.suiteStatuses.indexOf(429);
    expect(run.elapsedMs / 1000).toBeGreaterThan((12 - afterFirst) / (safeRate / 2));
  });

  it.each([
    [
      'a Reset in the past',
      (h: Record<string, string>) => ({ ...h, 'x-ratelimit-reset': '1600000000' }),
      /^X-RateLimit-Reset 1600000000 is before the answer's time/,
    ],
    [
      'a Reset past what a date can hold',
      (h: Record<string, string>) => ({ ...h, 'x-ratelimit-reset': '999999999999999' }),
      /^X-RateLimit-Reset 999999999999999 is more than a day after the answer's time/,
    ],
    [
      'a Reset in milliseconds',
      (h: Record<string, string>) => ({ ...h, 'x-ratelimit-reset': `${Number(h['x-ratelimit-reset']) * 1000}` }),
      /is more than a day after/,
    ],
    [
      'a negative Remaining',
      (h: Record<string, string>) => ({ ...h, 'x-ratelimit-remaining': '-3' }),
      /^X-RateLimit-Remaining "-3" is not a whole number$/,
    ],
    ['a Limit of 0', (h: Record<string, string>) => ({ ...h, 'x-ratelimit-limit': '0' }), /^X-RateLimit-Limit 0 allows nothing$/],
    [
      'a Limit that is not a number',
      (h: Record<string, string>) => ({ ...h, 'x-ratelimit-limit': 'ten' }),
      /^X-RateLimit-Limit "ten" is not a whole number$/,
    ],
    [
      'a Remaining above the Limit',
      (h: Record<string, string>) => ({ ...h, 'x-ratelimit-remaining': '99' }),
      /^X-RateLimit-Remaining 99 is above X-RateLimit-Limit 10$/,
    ],
  ])('names %s once, ignores it, and gets no 429 from it', async (_what, edit, named) => {
    const run = await shareTenant(new SimulatedBucket(10, 2, edit), 40);
    const { problems } = run.pacer.report();
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(named);
    expect(tooMany(run.suiteStatuses)).toBe(0);
  });

  it('names a Limit that changes, and stops reading the bucket by it', async () => {
    let answers = 0;
    const changing = (h: Record<string, string>) => ({ ...h, 'x-ratelimit-limit': (answers += 1) > 5 ? '50' : h['x-ratelimit-limit']! });
    const run = await shareTenant(new SimulatedBucket(10, 2, changing), 30);
    expect(run.pacer.report().problems).toEqual(['X-RateLimit-Limit 50 differs from the 10 of earlier answers']);
    expect(tooMany(run.suiteStatuses)).toBe(0);
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

  it("reads Reset on the target's clock: a target an hour ahead is waited for by its own Date", () => {
    const pacer = at(1_000_000);
    const date = new Date(1_000_000 + 3_600_000).toUTCString();
    pacer.observe({ 'x-ratelimit-limit': '10', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(1_000 + 3_602), date });
    expect(pacer.delayBeforeSend()).toBe(2_050);
  });

  it('refuses, with the reason, a wait that would end past the run bound', async () => {
    const pacer = new RateLimitPacer({
      share: 0.5,
      testDouble: false,
      declared: { refillPerSecond: 0.01 },
      deadline: 1_000_000 + 30_000,
      now: () => 1_000_000,
      sleep: async () => {},
    });
    pacer.observe({ 'x-ratelimit-limit': '10', 'x-ratelimit-remaining': '0' });
    const error = await pacer.beforeSend('GET /api/v2/x').then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(HarnessError);
    expect((error as HarnessError).code).toBe('RATE_LIMIT_WAIT');
    expect((error as Error).message).toMatch(
      /GET \/api\/v2\/x: the target's rate limit would keep the suite waiting 600 s \(X-RateLimit-Remaining 0 of 10, floor 5, refill about 0\.01\/s \(declared\), others about 0\.00\/s\), past the run's time bound \(30 s left\)/,
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
