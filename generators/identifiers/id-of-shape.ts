// Ids in one of the real service's shapes (observed.yaml `identifiers`): a prefix, then characters
// of one alphabet. The length is an option so that one shape gives both valid ids and realistic
// ids of a wrong length, which a server can only refuse by counting.
import fc from 'fast-check';
import { alphabetOf, type IdentifierShape } from '../../specs/index.ts';

export interface IdOfShapeConstraints {
  /** Total length, prefix included. Default: the shape's own length. */
  length?: number;
}

export function idOfShape(shape: IdentifierShape, constraints: IdOfShapeConstraints = {}): fc.Arbitrary<string> {
  const length = constraints.length ?? shape.length;
  const bodyLength = length - shape.prefix.length;
  if (!Number.isInteger(length) || bodyLength < 0) {
    throw new RangeError(`an id starting "${shape.prefix}" cannot have ${length} characters`);
  }
  const character = fc.constantFrom(...alphabetOf(shape));
  return fc.string({ unit: character, minLength: bodyLength, maxLength: bodyLength }).map(prefixedWith(shape.prefix));
}

function prefixedWith(prefix: string): (body: string) => string {
  return function prefixed(body) {
    return prefix + body;
  };
}
