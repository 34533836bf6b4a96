// JSON values of any type a field does not accept. Strings include look-alikes of the accepted
// type ("3600" for an integer, "true" for a boolean, "{}" for an object), because a lenient server
// coerces exactly those. A number with a fraction is of the wrong type where only integers are
// accepted (JSON Schema's "integer"); such numbers stay within the field's range, so the type is
// all they break.
import fc from 'fast-check';
import type { JsonType } from './json-type.ts';
import { jsonScalar } from './json-scalar.ts';

export interface JsonValueOfWrongTypeConstraints {
  /** Whether numbers with a fraction may be produced for an integer field. Default: true. */
  withFractions?: boolean;
  /** The field's inclusive range, which numbers with a fraction keep to. Default: none. */
  range?: { min?: number; max?: number };
}

/** Where numbers with a fraction go when the field gives no range. */
const UNBOUNDED = 1e6;

export function jsonValueOfWrongType(
  accepted: readonly JsonType[],
  constraints: JsonValueOfWrongTypeConstraints = {},
): fc.Arbitrary<unknown> {
  if (accepted.length === 0) throw new RangeError('a field that accepts any type has no wrong type');
  const acceptsNumber = accepted.includes('number');
  const acceptsInteger = acceptsNumber || accepted.includes('integer');
  const withFractions = constraints.withFractions ?? true;
  const candidates: fc.Arbitrary<unknown>[] = [];
  if (!accepted.includes('string')) candidates.push(stringLookingLike(accepted));
  if (!acceptsInteger) candidates.push(fc.integer());
  if (!acceptsNumber && (withFractions || !acceptsInteger)) candidates.push(numberWithFraction(constraints.range ?? {}));
  if (!accepted.includes('boolean')) candidates.push(fc.boolean());
  if (!accepted.includes('null')) candidates.push(fc.constant(null));
  if (!accepted.includes('array')) candidates.push(fc.array(jsonScalar(), { maxLength: 3 }));
  if (!accepted.includes('object')) candidates.push(smallObject());
  return fc.oneof(...candidates);
}

function stringLookingLike(accepted: readonly JsonType[]): fc.Arbitrary<string> {
  const lookalikes: fc.Arbitrary<string>[] = [fc.string({ maxLength: 20 })];
  if (accepted.includes('integer') || accepted.includes('number')) {
    lookalikes.push(fc.integer().map(String), fc.constantFrom('', '1.5', '1e3', '0x10', ' 1'));
  }
  if (accepted.includes('boolean')) lookalikes.push(fc.constantFrom('true', 'false', '1', '0', 'yes', ''));
  if (accepted.includes('array')) lookalikes.push(fc.constantFrom('[]', 'a,b', '["a"]'));
  if (accepted.includes('object')) lookalikes.push(fc.constantFrom('{}', '[object Object]', '{"name":"x"}'));
  return fc.oneof(...lookalikes);
}

function numberWithFraction(range: { min?: number; max?: number }): fc.Arbitrary<number> {
  const low = Math.ceil(range.min ?? -UNBOUNDED);
  const high = Math.floor(range.max ?? Math.max(low, 0) + UNBOUNDED);
  if (high <= low) throw new RangeError(`no number with a fraction lies in [${range.min}, ${range.max}]`);
  const besideBounds = [0.5, 1.5, -0.5, low + 0.5, high - 0.5].filter(function isInside(value) {
    return value > low && value < high;
  });
  // Whole part and fraction apart: a double drawn over the whole range is mostly integers or
  // subnormal noise such as 5e-324.
  const fraction = fc.double({ min: 0.001, max: 0.999, noNaN: true });
  const anywhere = fc
    .tuple(fc.integer({ min: low, max: high - 1 }), fraction)
    .map(sum)
    .filter(hasFraction);
  return fc.oneof(fc.constantFrom(...besideBounds), anywhere);
}

function sum([whole, fraction]: [number, number]): number {
  return whole + fraction;
}

function hasFraction(value: number): boolean {
  return !Number.isInteger(value);
}

function smallObject(): fc.Arbitrary<Record<string, unknown>> {
  const key = fc.string({ unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz_'), minLength: 1, maxLength: 10 });
  return fc.dictionary(key, jsonScalar(), { maxKeys: 2, noNullPrototype: true });
}
