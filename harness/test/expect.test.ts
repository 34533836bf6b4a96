// The conformance assertions: each passes when its rule holds and, when it does not, fails with a
// message that names the clause of the running test, what was expected and what was seen, both
// written from the values themselves. (The titles cite a clause, as every conformance test does.)
import { describe, expect, it } from 'vitest';
import type { Exchange } from '../http.ts';
import {
  currentClause,
  expectEqual,
  expectIncludes,
  expectJsonMediaType,
  expectMatch,
  expectNoProblems,
  expectNotEqual,
  expectPresent,
  expectRefused,
  expectStatus,
  mediaTypeOf,
  shown,
} from '../expect.ts';

const exchange = (status: number, body: unknown = {}): Exchange => ({
  request: { method: 'GET', url: 'https://tenant.example.com/api/v2/flows/vault/connections/ac_1', headers: { authorization: 'Bearer x' } },
  status,
  headers: { 'content-type': 'application/json; charset=utf-8' },
  text: JSON.stringify(body),
  json: body,
  ms: 1,
  at: 0,
  attempts: 1,
});

function failure(assertion: () => void): string {
  try {
    assertion();
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('the assertion passed');
}

describe('[§7 errors.404.vault] conformance assertions', () => {
  it('[§7 errors.404.vault] read the clause from the running test', () => {
    expect(currentClause()).toBe('errors.404.vault');
  });

  it('[§7 errors.404.vault] expectEqual compares JSON values deeply and shows both', () => {
    expectEqual({ a: [1, { b: 2 }] }, { a: [1, { b: 2 }] }, 'body');
    const message = failure(() => expectEqual({ a: 1 }, { a: 2 }, 'body', { exchange: exchange(404) }));
    expect(message).toMatch(/^\[§7 errors\.404\.vault\] /);
    expect(message).toContain('expected: body {"a":2}');
    expect(message).toContain('actual:   body {"a":1}');
    expect(message).toContain('response: 404 application/json; charset=utf-8 {}');
    expect(message).toContain(
      `replay:   curl -sS -i -X GET 'https://tenant.example.com/api/v2/flows/vault/connections/ac_1' -H "authorization: Bearer $TOKEN"`,
    );
    expect(failure(() => expectEqual(undefined, 'x', 'error'))).toContain('actual:   error (absent)');
    expect(failure(() => expectEqual([1, 2], [1], 'list'))).toContain('actual:   list [1,2]');
  });

  it('[§7 errors.404.vault] expectNotEqual, expectIncludes, expectPresent and expectMatch say what they saw', () => {
    expectNotEqual('a', 'b', 'message');
    expect(failure(() => expectNotEqual('same', 'same', 'message'))).toContain('expected: message other than "same"');
    expectIncludes(['a', 'b', 'c'], ['c', 'a'], 'scopes');
    expect(failure(() => expectIncludes(['a'], ['a', 'b'], 'scopes'))).toContain('actual:   scopes ["a"], without "b"');
    expectPresent(0, 'count');
    expect(failure(() => expectPresent(null, 'alg'))).toContain('actual:   alg null');
    expectMatch('/api/v2/x', /^\/api\/v2\//, 'path');
    expect(failure(() => expectMatch('/v2/x', /^\/api\/v2\//, 'path'))).toContain('expected: path matching /^\\/api\\/v2\\//');
  });

  it('[§7 errors.404.vault] expectNoProblems lists every problem', () => {
    expectNoProblems([], 'nothing wrong');
    expect(failure(() => expectNoProblems(['one', 'two'], 'a rule'))).toMatch(/expected: a rule\n\s+actual: {3}one; two/);
  });

  it('[§7 errors.404.vault] expectStatus and expectRefused', () => {
    expectStatus(exchange(404), 404);
    expect(failure(() => expectStatus(exchange(200), 404))).toContain('actual:   status 200');
    expectRefused(exchange(403));
    expect(failure(() => expectRefused(exchange(429)))).toContain('expected: a refusal (a 4xx status other than 429)');
    expect(failure(() => expectRefused(exchange(500)))).toContain('actual:   status 500');
  });

  it('[§7 errors.404.vault] shown() says absent for undefined', () => {
    expect(shown(undefined)).toBe('(absent)');
    expect(shown('x')).toBe('"x"');
  });
});

describe('a test that cites no clause', () => {
  it('cannot use the assertions', () => {
    expect(() => currentClause()).toThrow(/cites no clause: its title must start with \[§<section> <clause-id>\]/);
  });
});

describe('one media type in Content-Type', () => {
  it.each([
    ['application/json', 'application/json'],
    ['application/json; charset=utf-8', 'application/json'],
    ['Application/JSON ;charset="utf-8"', 'application/json'],
    ['application/json; charset=utf-8, application/json; charset=utf-8', undefined],
    ['application/json, text/plain', undefined],
    ['application/json; charset: utf-8', undefined],
    ['application/json; charset', undefined],
    ['application/json; charset="utf-8', undefined],
  ])('%j is %j', (value, type) => {
    expect(mediaTypeOf(value)).toBe(type);
  });

  it('[§4 sso-ticket.response.content-type] expectJsonMediaType refuses two content types folded into one field', () => {
    const folded = { ...exchange(201), headers: { 'content-type': 'application/json; charset=utf-8, application/json; charset=utf-8' } };
    expect(failure(() => expectJsonMediaType(folded))).toContain('one media type');
    expect(() => expectJsonMediaType(exchange(201))).not.toThrow();
  });
});
