import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../cli/paths.ts';
import { DECISION_LOGIC, scopeOf } from '../stryker/scope.ts';

describe('scopeOf', () => {
  it("mutates every TypeScript file of a folder, a file as it is, and never the mock's tests or faults", () => {
    expect(scopeOf(['mock/auth/', 'mock/validators.ts'], projectRoot)).toEqual({
      paths: ['mock/auth', 'mock/validators.ts'],
      mutate: ['mock/auth/**/*.ts', 'mock/validators.ts', '!mock/test/**', '!mock/faults/**'],
    });
  });

  it('takes the decision logic as its default, every part of which exists', () => {
    expect(scopeOf(DECISION_LOGIC, projectRoot).paths).toEqual(DECISION_LOGIC);
  });

  it.each([
    ['harness', /only the mock's own source/],
    ['mock/../harness', /only the mock's own source/],
    ['/etc', /only the mock's own source/],
    ['mock/test', /never mutated/],
    ['mock/faults/catalogue.ts', /never mutated/],
    ['mock/nothing-here', /no such folder or file/],
    ['mock/fixtures/default.yaml', /not a TypeScript file/],
  ])('refuses %s, saying why', (path, message) => {
    expect(() => scopeOf([path], projectRoot)).toThrow(message);
  });
});
