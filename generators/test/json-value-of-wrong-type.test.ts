// jsonValueOfWrongType: for each set of accepted types, values of none of them (by ajv's own
// reading of "type"), and numbers with a fraction inside a given range.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createAjv } from '../../specs/index.ts';
import { jsonValueOfClosestWrongType, jsonValueOfWrongType, type JsonType } from '../index.ts';
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
        expect(value).toBeGreaterThan(900);
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

describe('jsonValueOfClosestWrongType', () => {
  it.each<{ accepted: JsonType[]; itemTypes?: JsonType[]; closest: unknown }>([
    { accepted: ['string'], closest: 1 },
    { accepted: ['integer'], closest: '3600' },
    { accepted: ['integer', 'null'], closest: '3600' },
    { accepted: ['boolean'], closest: 'true' },
    { accepted: ['array'], itemTypes: ['string'], closest: 'x' },
    { accepted: ['array'], itemTypes: ['object'], closest: {} },
    { accepted: ['object'], closest: [] },
  ])('gives $closest for $accepted, a value of none of them', ({ accepted, itemTypes, closest }) => {
    const [value] = fc.sample(jsonValueOfClosestWrongType(accepted, itemTypes ? { itemTypes } : {}), 1);
    expect(value).toEqual(closest);
    expect(ajv.compile({ type: accepted })(value)).toBe(false);
  });

  it('keeps the digits of a number inside the field range', () => {
    expect(fc.sample(jsonValueOfClosestWrongType(['integer'], { range: { min: 0, max: 100 } }), 1)).toEqual(['100']);
    expect(fc.sample(jsonValueOfClosestWrongType(['integer'], { range: { min: 5000 } }), 1)).toEqual(['5000']);
  });

  it('refuses a field that accepts only null', () => {
    expect(() => jsonValueOfClosestWrongType(['null'])).toThrow(RangeError);
  });
});
