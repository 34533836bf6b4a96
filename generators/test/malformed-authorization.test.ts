// malformedAuthorization: every value is a valid header value and never a well-formed bearer JWS,
// and the kinds of malformation the name promises all occur.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { malformedAuthorization } from '../index.ts';
import { jwsShapedToken } from '../authorization/jws-segments.ts';
import { runs, sampleOptions } from './support/runs.ts';
import { HEADER_VALUE, isWellFormedBearerJws } from './support/well-formed-bearer-jws.ts';

describe('malformedAuthorization', () => {
  it('is a valid header value and never "Bearer" and a JWS whose header is JSON', () => {
    fc.assert(
      fc.property(malformedAuthorization(), (value) => {
        expect(value).toMatch(HEADER_VALUE);
        expect(isWellFormedBearerJws(value), `${value} is a well-formed bearer JWS`).toBe(false);
      }),
      { ...runs, numRuns: 400 },
    );
  });

  it('gives each kind of malformation', () => {
    const values = fc.sample(malformedAuthorization(), { ...sampleOptions, numRuns: 600 });
    const kinds: Record<string, (value: string) => boolean> = {
      'no scheme': (value) => /^eyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/.test(value),
      'the Basic scheme': (value) => value.startsWith('Basic '),
      'another scheme with a token': (value) => /^(Token|JWT|Digest|MAC|Bearer:) /.test(value),
      '"Bearer" alone': (value) => value === 'Bearer',
      'two segments': (value) => /^Bearer [^.\s]+\.[^.\s]+$/.test(value),
      'an unsigned token': (value) => /^Bearer [^.\s]+\.[^.\s]+\.$/.test(value),
      'three segments of garbage': (value) => /^Bearer [A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/.test(value),
      'more than three segments': (value) => /^Bearer ([A-Za-z0-9_-]+\.){3,}[A-Za-z0-9_-]+$/.test(value),
      'the scheme in another case': (value) => /^(bearer|BEARER|BeArEr)( |$)/.test(value),
      'padded base64': (value) => value.includes('=='),
      'a client bug': (value) => value === 'Bearer undefined' || value === 'Bearer null',
    };
    for (const [kind, isOfKind] of Object.entries(kinds)) {
      expect(values.some(isOfKind), `no value is of the kind "${kind}"`).toBe(true);
    }
  });

  it('the check recognises a well-formed bearer JWS', () => {
    const [token] = fc.sample(jwsShapedToken(), sampleOptions);
    expect(isWellFormedBearerJws(`Bearer ${token}`)).toBe(true);
    expect(isWellFormedBearerJws(`bearer  ${token}`)).toBe(true);
    expect(isWellFormedBearerJws(token!)).toBe(false);
  });
});
