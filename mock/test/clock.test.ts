import { describe, expect, test } from 'vitest';
import { ManualClock, systemClock } from '../clock.ts';

describe('ManualClock', () => {
  test('stays where it is until moved', () => {
    const clock = new ManualClock(1_000);
    expect([clock.now(), clock.now()]).toEqual([1_000, 1_000]);
  });

  test('advance moves forward and set jumps', () => {
    const clock = new ManualClock(1_000);
    clock.advance(250);
    expect(clock.now()).toBe(1_250);
    clock.set(5);
    expect(clock.now()).toBe(5);
  });

  test('refuses to move backwards with advance', () => {
    expect(() => new ManualClock().advance(-1)).toThrow(RangeError);
  });
});

test('systemClock reads the system time', () => {
  const before = Date.now();
  const now = systemClock.now();
  expect(now).toBeGreaterThanOrEqual(before);
  expect(now).toBeLessThanOrEqual(Date.now());
});
