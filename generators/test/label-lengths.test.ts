// labelLengths: the arithmetic under hostNameOfLength, both sides of the 63-character label.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { labelLengths } from '../host-names/label-lengths.ts';
import { runs } from './support/runs.ts';

describe('labelLengths', () => {
  it.each([
    { total: 1, preferred: [5], lengths: [1] },
    { total: 63, preferred: [5], lengths: [63] },
    { total: 64, preferred: [5], lengths: [5, 58] },
    { total: 64, preferred: [63], lengths: [62, 1] },
    { total: 200, preferred: [63], lengths: [63, 63, 63, 8] },
  ])('splits $total characters preferring $preferred into $lengths', ({ total, preferred, lengths }) => {
    expect(labelLengths(total, preferred)).toEqual(lengths);
  });

  it('fills the total exactly with labels of 1 to 63 characters', () => {
    const input = fc.tuple(fc.integer({ min: 1, max: 400 }), fc.array(fc.integer({ min: 1, max: 100 }), { minLength: 1, maxLength: 6 }));
    fc.assert(
      fc.property(input, ([total, preferred]) => {
        const lengths = labelLengths(total, preferred);
        expect(lengths.reduce((sum, length) => sum + length, 0) + lengths.length - 1).toBe(total);
        for (const length of lengths) {
          expect(length).toBeGreaterThanOrEqual(1);
          expect(length).toBeLessThanOrEqual(63);
        }
      }),
      runs,
    );
  });
});
