// End to end, the two tests of suites/rate-limit/exhaustion.test.ts that need a small bucket (the
// embedded mock's holds the whole run and takes minutes to fill, so there they are not applicable):
// the burst after idling, and the burst right after the first request served again. A test double
// whose bucket of 4 refills at 2 a second (slow, so that a burst a busy machine answers slowly still
// tells the faults apart): with the mock's limiter both pass; with a limiter that forgets to cap
// its refill at the bucket's size the first fails, and with a fixed-window counter the second, each under redeliver.errors.429, naming how many of the burst were served.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createMockServer, type FaultHooks } from '../../mock/index.ts';
import type { Quota, RateLimitConfig, RateLimiter } from '../../mock/rate-limiter.ts';
import { resultsOf, run, writeTargetFile } from './support/programs.ts';

const work = mkdtempSync(join(tmpdir(), 'idle-refill-e2e-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const BUCKET: RateLimitConfig = { bucketSize: 4, refillPerSecond: 2 };
const IDLE = 'after idling three times as long as the bucket takes to fill';
const AGAIN = 'the first request served again is followed by no more than the refill';
/** Both tests' titles begin so, and no other test's. */
const BOTH = '[§7 redeliver.errors.429] after ';

/**
 * A token bucket whose refill has no cap once it has refused a request: from then on every idle
 * second adds `refillPerSecond`, however full it is. (Capped until then, so that the seconds a busy
 * machine takes to start the run do not fill it past what the exhaustion spends before it gives up.)
 */
function uncappedLimiter(config: RateLimitConfig): RateLimiter {
  let tokens = config.bucketSize;
  let at = Date.now();
  let refused = false;
  return {
    config,
    take(): Quota {
      const now = Date.now();
      tokens += ((now - at) / 1000) * config.refillPerSecond;
      if (!refused) tokens = Math.min(config.bucketSize, tokens);
      at = now;
      const allowed = tokens >= 1;
      if (allowed) tokens -= 1;
      else refused = true;
      const remaining = Math.max(0, Math.min(config.bucketSize, Math.floor(tokens)));
      return { allowed, limit: config.bucketSize, remaining, resetSeconds: Math.ceil((now + 1000 / config.refillPerSecond) / 1000) };
    },
  };
}

/**
 * A fixed-window counter: a count per window of a bucket's length (bucketSize / refillPerSecond),
 * started afresh at each window's end, as an INCR with EXPIRE would.
 */
function fixedWindowLimiter(config: RateLimitConfig): RateLimiter {
  const windowMs = (config.bucketSize / config.refillPerSecond) * 1000;
  let window = -1;
  let count = 0;
  return {
    config,
    take(): Quota {
      const now = Date.now();
      const current = Math.floor(now / windowMs);
      if (current !== window) [window, count] = [current, 0];
      const allowed = count < config.bucketSize;
      if (allowed) count += 1;
      return {
        allowed,
        limit: config.bucketSize,
        remaining: config.bucketSize - count,
        resetSeconds: Math.ceil(((current + 1) * windowMs) / 1000),
      };
    },
  };
}

/** Both tests against a test double with the small bucket and, where given, another limiter: each test's result by title. */
async function smallBucketRun(name: string, limiter?: (config: RateLimitConfig) => RateLimiter) {
  const customize = limiter ? (hooks: FaultHooks) => hooks.override('limiter', (own) => limiter(own.config)) : undefined;
  const mock = await createMockServer({ rateLimit: BUCKET, report: () => {}, ...(customize ? { customize } : {}) });
  try {
    const target = writeTargetFile({
      url: mock.url,
      dir: work,
      name: `${name}.yaml`,
      change: (t) => (t.rate_limit = { refill_per_second: BUCKET.refillPerSecond, bucket_size: BUCKET.bucketSize }),
    });
    const out = join(work, name);
    const finished = await run('cli/conformance.ts', ['--target-file', target.path, '--grep', BOTH, '--out', out], target.env, 90_000);
    const tests = resultsOf(out).tests;
    return { finished, idle: tests.find((t) => t.name.includes(IDLE)), again: tests.find((t) => t.name.includes(AGAIN)) };
  } finally {
    await mock.close();
  }
}

describe('bursts that a small bucket limits', () => {
  it('pass against the mock: after idling, and right after the first request served again', async () => {
    const { finished, idle, again } = await smallBucketRun('capped');
    expect([idle?.state, again?.state], finished.stdout).toEqual(['passed', 'passed']);
    // INCOMPLETE: --grep leaves the other clauses untested.
    expect(finished.code).toBe(4);
  }, 90_000);

  it('fail redeliver.errors.429 after idling where the refill is not capped at the bucket', async () => {
    const { finished, idle } = await smallBucketRun('uncapped', uncappedLimiter);
    expect(idle?.state, finished.stdout).toBe('failed');
    expect(idle?.clause).toBe('redeliver.errors.429');
    expect(finished.stdout).toMatch(/requests sent at once after 6 s idle served/);
    expect(finished.code).toBe(1);
  }, 90_000);

  it('fail redeliver.errors.429 right after the first request served again where a fixed window hands out a whole allowance', async () => {
    const { finished, again } = await smallBucketRun('fixed-window', fixedWindowLimiter);
    expect(again?.state, finished.stdout).toBe('failed');
    expect(again?.clause).toBe('redeliver.errors.429');
    expect(finished.stdout).toMatch(/requests sent at once right after the first one served again/);
    expect(finished.code).toBe(1);
  }, 90_000);
});
