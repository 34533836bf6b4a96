// jsonValueOfWrongType: for each set of accepted types, values of none of them (by ajv's own
// reading of "type"), and numbers with a fraction inside a given range.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createAjv } from '../../specs/index.ts';
import { jsonValueOfWrongType, type JsonType } from '../index.ts';
import { runs } from './support/runs.ts';

const ajv = createAjv();

describe('jsonValueOfWrongType', () => {
  it.each<{ accepted: JsonType[] }>([
    { accepted: ['string'] },
    { accepted: ['integer'] },
    { accepted: ['integer', 'null'] },
    { accepted: ['number'] },
    { accepted: ['boolean'] },
    { accepted: ['array'] },
    { accepted: ['object'] },
  ])('gives values that are not of $accepted', ({ accepted }) => {
    const ofAcceptedType = ajv.compile({ type: accepted });
    fc.assert(
      fc.property(jsonValueOfWrongType(accepted), (value) => {
        expect(ofAcceptedType(value), `${JSON.stringify(value)} is of ${accepted.join('|')}`).toBe(false);
      }),
      runs,
    );
  });

  it('keeps numbers with a fraction inside the given range', () => {
    const fractions = jsonValueOfWrongType(['integer'], { range: { min: 900 } }).filter((value) => typeof value === 'number');
    fc.assert(
      fc.property(fractions, (value) => {
        expect(value as number).toBeGreaterThan(900);
        expect(Number.isInteger(value)).toBe(false);
      }),
      runs,
    );
  });

  it('gives no number for an integer field when fractions are off', () => {
    fc.assert(
      fc.property(jsonValueOfWrongType(['integer'], { withFractions: false }), (value) => {
        expect(typeof value).not.toBe('number');
      }),
      runs,
    );
  });

  it('refuses a field that accepts every type', () => {
    expect(() => jsonValueOfWrongType([])).toThrow(RangeError);
  });
});
