// The one value of a wrong JSON type a lenient server is most likely to take for the right one:
// the deterministic case of a type rule, where jsonValueOfWrongType gives the random ones.
//   integer, number -> the digits of an in-range number as a string ("3600"), which coercing
//                      parsers turn back into the number;
//   boolean         -> "true";
//   string          -> a number (ids and names arrive unquoted from loosely typed clients);
//   array           -> one bare item (a string, or an object for arrays of objects);
//   object          -> an empty array, which passes a check written as typeof x === 'object'.
// Never null: the real service lets some fields be null, and null is read as "absent" by many.
import fc from 'fast-check';
import type { JsonType } from './json-type.ts';

export interface JsonValueOfClosestWrongTypeConstraints {
  /** The field's inclusive range, for the digits of an integer or number. */
  range?: { min?: number; max?: number };
  /** The types of an array field's items, for the bare item. */
  itemTypes?: readonly JsonType[];
}

/** A number the digits stand for: inside the range, near a common value (an hour, in seconds). */
const TYPICAL_NUMBER = 3600;

export function jsonValueOfClosestWrongType(
  accepted: readonly JsonType[],
  constraints: JsonValueOfClosestWrongTypeConstraints = {},
): fc.Arbitrary<unknown> {
  const [first] = accepted.filter((type) => type !== 'null');
  if (first === undefined) throw new RangeError('a field that accepts only null, or any type, has no closest wrong type');
  return fc.constant(closestTo(first, constraints));
}

function closestTo(type: JsonType, constraints: JsonValueOfClosestWrongTypeConstraints): unknown {
  switch (type) {
    case 'integer':
    case 'number': {
      const { min = Number.NEGATIVE_INFINITY, max = Number.POSITIVE_INFINITY } = constraints.range ?? {};
      return String(Math.min(max, Math.max(min, TYPICAL_NUMBER)));
    }
    case 'boolean':
      return 'true';
    case 'string':
      return 1;
    case 'array':
      return constraints.itemTypes?.includes('object') ? {} : 'x';
    case 'object':
      return [];
    case 'null':
      throw new RangeError('null has no closest wrong type');
  }
}
