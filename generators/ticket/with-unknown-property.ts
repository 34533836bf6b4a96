// Objects from `objects` with one property added whose name is not one of `known`.
import fc from 'fast-check';
import { jsonScalar } from '../json/json-scalar.ts';
import { unknownPropertyName } from './unknown-property-name.ts';

export function withUnknownProperty<T extends object>(objects: fc.Arbitrary<T>, known: readonly string[]): fc.Arbitrary<T> {
  return fc.tuple(objects, unknownPropertyName(known), jsonScalar()).map(withPropertyAdded);
}

function withPropertyAdded<T extends object>([object, name, value]: [T, string, unknown]): T {
  return { ...object, [name]: value };
}
