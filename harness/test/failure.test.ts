// How a failure reads whatever the target sent: bounded (a value or a body of a megabyte is shown
// capped, one nested too deep for JSON is said so), an answer's summary excerpted as the answer
// would be, and a custom-domain failure with the hint of where the header's name is set.
import { describe, expect, it } from 'vitest';
import { answerSummary, type Exchange } from '../http.ts';
import { describeCheck, excerpt, shownValue } from '../failure.ts';

const exchange = (request: Partial<Exchange['request']> = {}, text = '{}'): Exchange =>
  answerSummary({
    request: { method: 'POST', url: 'https://tenant.example.com/api/v2/self-service-profiles/ssp_1/sso-ticket', headers: {}, ...request },
    status: 201,
    headers: { 'content-type': 'application/json' },
    text,
    json: undefined,
    ms: 1,
    at: 0,
    attempts: 1,
  });

describe('shownValue', () => {
  it('says a value nested too deep for JSON is so, rather than throwing', () => {
    const deep = JSON.parse(`${'['.repeat(200_000)}${']'.repeat(200_000)}`) as unknown;
    expect(shownValue(deep)).toBe('(an array nested too deep to show)');
  });

  it('caps a long value, saying how long it was', () => {
    const shown = shownValue('x'.repeat(5_000));
    expect(shown.length).toBeLessThan(1_100);
    expect(shown).toMatch(/… \(5002 chars\)$/);
  });
});

describe('an answer kept past its test', () => {
  it('keeps the body only as its beginning, and its excerpt says the whole length', () => {
    const kept = exchange({}, `{"a":"${'y'.repeat(100_000)}"}`);
    expect(kept.text.length).toBeLessThanOrEqual(1_024);
    expect(kept.bodyLength).toBe(100_008);
    expect(excerpt(kept.text, kept.bodyLength)).toMatch(/… \(100008 chars\)$/);
    expect(excerpt('{"small": true}')).toBe('{"small": true}');
  });

  it('is made without parsing the body (half a second for a megabyte of nested arrays)', () => {
    const { request, status, headers, ms, at, attempts } = exchange();
    const unparsable = Object.defineProperty({ request, status, headers, ms, at, attempts, text: '[[]]' }, 'json', {
      enumerable: true,
      get: () => {
        throw new Error('parsed');
      },
    }) as Exchange;
    expect(answerSummary(unparsable).text).toBe('[[]]');
  });
});

describe('a custom-domain failure', () => {
  const check = (clause: string, headers: Record<string, string>) =>
    describeCheck({
      clause,
      pass: false,
      expected: 'ticket host "abc.example"',
      actual: 'ticket host "tenant.example.com"',
      exchange: exchange({ headers }),
    });

  it('hints at custom_domain_header, naming the header the request sent', () => {
    expect(check('sso-ticket.custom-domain.host', { 'tenant-custom-domain': 'abc.example' })).toContain(
      '  hint:     the request sent the custom domain in tenant-custom-domain; a target that reads it from another header ignores it (the real service reads auth0-custom-domain): custom_domain_header in the target file names the header to send',
    );
  });

  it('gives no hint for another clause, or where no custom domain was sent', () => {
    expect(check('sso-ticket.success.status', { 'tenant-custom-domain': 'abc.example' })).not.toContain('hint:');
    expect(check('sso-ticket.custom-domain.host', {})).not.toContain('hint:');
  });
});
