// tenant-custom-domain arbitraries: host-name-like values of exactly the lengths their names say,
// valid header values, and against the header's schema valid or refused for their length only.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileNode, parameter } from '../../specs/index.ts';
import { customDomain, customDomainOfLength, customDomainTooLong, customDomainTooShort } from '../index.ts';
import { runs, sampleOptions } from './support/runs.ts';
import { expectRefusedOnlyFor, expectValid } from './support/schema-expectations.ts';
import { HEADER_VALUE } from './support/well-formed-bearer-jws.ts';

const header = compileNode(parameter('sso-ticket', 'header', 'tenant-custom-domain').schema, 'contract');
const DOTTED_HOST = /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,6}$/;
const SINGLE_LABEL = /^[a-z]{1,3}$/;

/** Host-name-like: labels of at most 63, a letters-only last label, and a URL parser keeps it whole. */
function expectHostLike(domain: string): void {
  expect(domain).toMatch(domain.length < 4 ? SINGLE_LABEL : DOTTED_HOST);
  expect(domain).toMatch(HEADER_VALUE);
  expect(new URL(`https://${domain}/`).hostname).toBe(domain);
}

describe('customDomainOfLength', () => {
  it.each([1, 2, 3, 4, 5, 17, 63, 64, 65, 128, 254, 255, 256, 300])('gives host names of exactly %i characters', (length) => {
    fc.assert(
      fc.property(customDomainOfLength(length), (domain) => {
        expect(domain).toHaveLength(length);
        expectHostLike(domain);
      }),
      { ...runs, numRuns: 40 },
    );
  });

  it('gives host names of any length asked for', () => {
    const domainAndLength = fc.integer({ min: 1, max: 300 }).chain((length) => fc.tuple(customDomainOfLength(length), fc.constant(length)));
    fc.assert(
      fc.property(domainAndLength, ([domain, length]) => {
        expect(domain).toHaveLength(length);
        expectHostLike(domain);
      }),
      runs,
    );
  });

  it('refuses a length under one', () => {
    expect(() => customDomainOfLength(0)).toThrow(RangeError);
  });
});

describe('customDomain', () => {
  it('passes the header schema and is host-like', () => {
    fc.assert(
      fc.property(customDomain(), (domain) => {
        expectValid(header, domain);
        expectHostLike(domain);
      }),
      runs,
    );
  });

  it('gives the shortest and the longest length', () => {
    const lengths = new Set(fc.sample(customDomain(), { ...sampleOptions, numRuns: 100 }).map((domain) => domain.length));
    expect(lengths).toContain(3);
    expect(lengths).toContain(255);
  });
});

describe('custom domains of a wrong length', () => {
  it('customDomainTooShort is 1 or 2 characters and fails on minLength only', () => {
    fc.assert(
      fc.property(customDomainTooShort(), (domain) => {
        expect([1, 2]).toContain(domain.length);
        expectHostLike(domain);
        expectRefusedOnlyFor(header, domain, { keywords: ['minLength'] });
      }),
      runs,
    );
  });

  it('customDomainTooLong is 256 to 300 characters and fails on maxLength only', () => {
    fc.assert(
      fc.property(customDomainTooLong(), (domain) => {
        expect(domain.length).toBeGreaterThanOrEqual(256);
        expect(domain.length).toBeLessThanOrEqual(300);
        expectHostLike(domain);
        expectRefusedOnlyFor(header, domain, { keywords: ['maxLength'] });
      }),
      runs,
    );
  });

  it('the length check does not refuse a 3-character domain', () => {
    const [domain] = fc.sample(customDomainOfLength(3), sampleOptions);
    expect(() => expectRefusedOnlyFor(header, domain, { keywords: ['minLength'] })).toThrow();
  });
});
