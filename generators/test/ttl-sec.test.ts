// ttl_sec arbitraries against the schema of ttl_sec: the valid ones pass at both levels, the
// invalid ones fail on the one keyword their name breaks.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileNode, schemaAt, validator } from '../../specs/index.ts';
import {
  ttlSecAboveMaximum,
  ttlSecAtBounds,
  ttlSecBelowMinimum,
  ttlSecNonInteger,
  ttlSecOfWrongType,
  ttlSecWithinRange,
  ttlSecWrappingIntoRange,
  ticketRequestBodyWithTtlSec,
} from '../index.ts';
import { runs, sampleOptions } from './support/runs.ts';
import { expectRefusedOnlyFor, expectValid } from './support/schema-expectations.ts';

const node = schemaAt({ operation: 'sso-ticket', in: 'body', property: 'ttl_sec' });
const contract = compileNode(node, 'contract');
const observedLevel = compileNode(node, 'observed');

describe('valid ttl_sec', () => {
  it('ttlSecWithinRange passes both levels', () => {
    fc.assert(
      fc.property(ttlSecWithinRange(), (ttl) => {
        expectValid(contract, ttl);
        expectValid(observedLevel, ttl);
      }),
      runs,
    );
  });

  it('ttlSecAtBounds is 0, 1 or 432000 and gives each', () => {
    const seen = new Set<number>();
    fc.assert(
      fc.property(ttlSecAtBounds(), (ttl) => {
        expect([0, 1, 432000]).toContain(ttl);
        expectValid(contract, ttl);
        seen.add(ttl);
      }),
      runs,
    );
    expect([...seen].sort((a, b) => a - b)).toEqual([0, 1, 432000]);
  });
});

describe('invalid ttl_sec', () => {
  const rows = [
    {
      name: 'ttlSecBelowMinimum',
      arbitrary: ttlSecBelowMinimum(),
      keyword: 'minimum',
      holds: (ttl: unknown) => Number.isInteger(ttl) && (ttl as number) <= -1,
    },
    {
      name: 'ttlSecAboveMaximum',
      arbitrary: ttlSecAboveMaximum(),
      keyword: 'maximum',
      holds: (ttl: unknown) => Number.isInteger(ttl) && (ttl as number) >= 432001,
    },
    { name: 'ttlSecOfWrongType', arbitrary: ttlSecOfWrongType(), keyword: 'type', holds: (ttl: unknown) => typeof ttl !== 'number' },
  ];

  it.each(rows)('$name fails the contract on $keyword only', ({ arbitrary, keyword, holds }) => {
    fc.assert(
      fc.property(arbitrary, (ttl) => {
        expect(holds(ttl), `${JSON.stringify(ttl)} is not what the name says`).toBe(true);
        expectRefusedOnlyFor(contract, ttl, { keywords: [keyword] });
      }),
      runs,
    );
  });

  it('ttlSecWrappingIntoRange is outside the range, and inside it once a 32-bit integer wraps it', () => {
    fc.assert(
      fc.property(ttlSecWrappingIntoRange(), (ttl) => {
        const wrapped = ttl >>> 0;
        expect(wrapped >= 0 && wrapped <= 432000, `${ttl} wraps to ${wrapped}`).toBe(true);
        expectRefusedOnlyFor(contract, ttl, { keywords: [ttl < 0 ? 'minimum' : 'maximum'] });
      }),
      runs,
    );
  });

  it('ttlSecNonInteger fails the contract on type, and on the bound it is beside when outside', () => {
    fc.assert(
      fc.property(ttlSecNonInteger(), (ttl) => {
        expect(Number.isInteger(JSON.parse(JSON.stringify(ttl)))).toBe(false);
        const outside = ttl < 0 ? ['minimum'] : ttl > 432000 ? ['maximum'] : [];
        expectRefusedOnlyFor(contract, ttl, { keywords: ['type', ...outside] });
        expect(contract.errors!.map((error) => error.keyword)).toContain('type');
      }),
      runs,
    );
  });

  it('ttlSecNonInteger gives fractions inside the range and beside both bounds', () => {
    const values = fc.sample(ttlSecNonInteger(), { ...sampleOptions, numRuns: 100 });
    expect(values.some((ttl) => ttl > 0 && ttl < 432000)).toBe(true);
    expect(values).toContain(-0.5);
    expect(values).toContain(432000.5);
  });

  it('the bound checks refuse neither bound itself', () => {
    expect(() => expectRefusedOnlyFor(contract, 432000, { keywords: ['maximum'] })).toThrow();
    expect(() => expectRefusedOnlyFor(contract, 0, { keywords: ['minimum'] })).toThrow();
  });
});

describe('ticketRequestBodyWithTtlSec', () => {
  it('is a valid body but for its ttl_sec', () => {
    fc.assert(
      fc.property(ticketRequestBodyWithTtlSec(ttlSecAboveMaximum()), (body) => {
        expectRefusedOnlyFor(validator('SsoTicketRequest', 'contract'), body, { keywords: ['maximum'], at: '/ttl_sec' });
        expectRefusedOnlyFor(validator('SsoTicketRequest', 'observed'), body, { keywords: ['maximum'], at: '/ttl_sec' });
      }),
      runs,
    );
  });
});
