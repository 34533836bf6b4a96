// Assertions of the generator tests: a value passes a schema, or fails it for the named keywords
// at the named place and for nothing else. Failures print the value and ajv's reasons.
import { expect } from 'vitest';
import { describeErrors, type validator } from '../../../specs/index.ts';

export type Validate = ReturnType<typeof validator>;

export interface Refusal {
  /** ajv keywords the value may fail: "maxLength", "type", ... */
  keywords: readonly string[];
  /** Where: an instancePath ("" is the root) or a pattern for one ("/enabled_organizations/\d+"). */
  at?: string | RegExp;
}

export function expectValid(validate: Validate, value: unknown): void {
  const valid = validate(value);
  expect(valid, `${shown(value)} is refused: ${describeErrors(validate.errors)}`).toBe(true);
}

export function expectRefusedOnlyFor(validate: Validate, value: unknown, refusal: Refusal): void {
  const valid = validate(value);
  const errors = validate.errors ?? [];
  const wanted = `${refusal.keywords.join(' or ')} at ${String(refusal.at ?? '(root)')}`;
  expect(valid, `${shown(value)} is accepted; expected a refusal for ${wanted}`).toBe(false);
  const stray = errors.filter(function isStray(error) {
    return !refusal.keywords.includes(error.keyword) || !isAt(error.instancePath, refusal.at ?? '');
  });
  expect(stray, `${shown(value)} is refused for more than ${wanted}: ${describeErrors(stray)}`).toEqual([]);
}

function isAt(instancePath: string, at: string | RegExp): boolean {
  return typeof at === 'string' ? instancePath === at : at.test(instancePath);
}

/** An instancePath pattern for a field path: "[]" is any index. */
export function instancePathOf(path: readonly string[]): RegExp {
  const pointer = path.map((segment) => (segment === '[]' ? '\\d+' : segment)).join('/');
  return new RegExp(`^${path.length === 0 ? '' : '/'}${pointer}$`);
}

function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 400 ? `${text.slice(0, 400)}…` : text;
}
