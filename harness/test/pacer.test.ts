import { describe, expect, it } from 'vitest';
import { RateLimitPacer } from '../pacer.ts';

const at = (now: number) => new RateLimitPacer({ maxWaitMs: 60_000, now: () => now, sleep: async () => {} });

describe('RateLimitPacer', () => {
  it('does not wait while requests remain', () => {
    const pacer = at(1_000_000);
    pacer.observe({ 'x-ratelimit-remaining': '3', 'x-ratelimit-reset': '1001' });
    expect(pacer.delayBeforeSend()).toBe(0);
  });

  it('waits until Reset (seconds) when none remain', () => {
    const pacer = at(1_000_000);
    pacer.observe({ 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '1002' });
    expect(pacer.delayBeforeSend()).toBe(2_050);
  });

  it('caps the wait, whatever Reset says', () => {
    const pacer = at(1_000_000);
    pacer.observe({ 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '999999' });
    expect(pacer.delayBeforeSend()).toBe(60_000);
  });

  it('reads a Reset in milliseconds as milliseconds, for pacing only', () => {
    const pacer = at(1_700_000_000_000);
    pacer.observe({ 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '1700000000500' });
    expect(pacer.delayBeforeSend()).toBe(550);
  });

  it('forgets the last Remaining after waiting', async () => {
    const pacer = at(1_000_000);
    pacer.observe({ 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '1001' });
    await pacer.wait(pacer.delayBeforeSend());
    expect(pacer.delayBeforeSend()).toBe(0);
    expect(pacer.waitedMs).toBe(1_050);
  });

  it('ignores headers that are absent or not numbers', () => {
    const pacer = at(1_000_000);
    pacer.observe({ 'x-ratelimit-remaining': 'zero' });
    expect(pacer.delayBeforeSend()).toBe(0);
  });
});
