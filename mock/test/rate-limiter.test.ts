// The token bucket's arithmetic, with a manual clock: drain, refill, and what the headers say.
import { describe, expect, test } from 'vitest';
import { observed } from '../../specs/index.ts';
import { ManualClock } from '../clock.ts';
import { createRateLimiter, rateLimitHeaders } from '../rate-limiter.ts';

const START = Date.UTC(2025, 0, 1, 12, 0, 0, 300);

function limiter(bucketSize: number, refillPerSecond: number) {
  const clock = new ManualClock(START);
  return { clock, limiter: createRateLimiter({ bucketSize, refillPerSecond }, clock) };
}

describe('token bucket', () => {
  test('a full bucket allows bucketSize requests, then refuses', () => {
    const { limiter: bucket } = limiter(3, 1);
    const taken = [bucket.take(), bucket.take(), bucket.take(), bucket.take()];
    expect(taken.map((q) => q.allowed)).toEqual([true, true, true, false]);
    expect(taken.map((q) => q.remaining)).toEqual([2, 1, 0, 0]);
  });

  test('Limit is the bucket size on every answer', () => {
    const { limiter: bucket } = limiter(5, 2);
    expect([bucket.take(), bucket.take()].map((q) => q.limit)).toEqual([5, 5]);
  });

  test('Remaining never goes below 0 however often an empty bucket is asked', () => {
    const { limiter: bucket } = limiter(1, 1);
    const quotas = Array.from({ length: 5 }, () => bucket.take());
    expect(quotas.every((q) => q.remaining >= 0)).toBe(true);
    expect(quotas.filter((q) => q.allowed)).toHaveLength(1);
  });

  test('refills continuously at refillPerSecond', () => {
    const { clock, limiter: bucket } = limiter(10, 4);
    for (let i = 0; i < 10; i += 1) bucket.take();
    expect(bucket.take().allowed).toBe(false);
    clock.advance(249);
    expect(bucket.take().allowed).toBe(false);
    clock.advance(1);
    const quota = bucket.take();
    expect([quota.allowed, quota.remaining]).toEqual([true, 0]);
  });

  test('never holds more than the bucket size', () => {
    const { clock, limiter: bucket } = limiter(2, 100);
    clock.advance(60_000);
    expect([bucket.take(), bucket.take(), bucket.take()].map((q) => q.allowed)).toEqual([true, true, false]);
  });

  test('Reset is the Unix second (rounded up) when the next token is added', () => {
    const { limiter: bucket } = limiter(2, 1);
    bucket.take();
    // Two tokens are missing; the next comes back 1000 ms after START (START is 300 ms into a second).
    expect(bucket.take().resetSeconds).toBe(Math.ceil((START + 1000) / 1000));
  });

  test('Reset after a refused request is when the bucket holds one token again', () => {
    const { clock, limiter: bucket } = limiter(1, 2);
    bucket.take();
    clock.advance(100);
    const refused = bucket.take();
    expect(refused.allowed).toBe(false);
    expect(refused.resetSeconds).toBe(Math.ceil((START + 500) / 1000));
  });

  test('Reset is never in the past', () => {
    const { clock, limiter: bucket } = limiter(50, 1000);
    for (let i = 0; i < 200; i += 1) {
      clock.advance(i % 7);
      const quota = bucket.take();
      expect(quota.resetSeconds).toBeGreaterThanOrEqual(Math.floor(clock.now() / 1000));
    }
  });

  test('a clock set backwards adds no tokens', () => {
    const { clock, limiter: bucket } = limiter(1, 1);
    bucket.take();
    clock.set(START - 10_000);
    expect(bucket.take().allowed).toBe(false);
  });
});

test('rateLimitHeaders names the three observed headers', () => {
  const headers = rateLimitHeaders({ allowed: true, limit: 10, remaining: 3, resetSeconds: 1_735_732_801 });
  const names = observed.rate_limit.headers;
  expect(headers).toEqual({ [names.limit]: '10', [names.remaining]: '3', [names.reset]: '1735732801' });
});
