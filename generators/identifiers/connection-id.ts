// A connection id of the observed shape (con_ and alphanumerics).
import type fc from 'fast-check';
import { observed } from '../../specs/index.ts';
import { idOfShape } from './id-of-shape.ts';

export function connectionId(): fc.Arbitrary<string> {
  return idOfShape(observed.identifiers.connection);
}
