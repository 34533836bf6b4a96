// A client id of the observed shape (alphanumerics, no prefix).
import type fc from 'fast-check';
import { observed } from '../../specs/index.ts';
import { idOfShape } from './id-of-shape.ts';

export function clientId(): fc.Arbitrary<string> {
  return idOfShape(observed.identifiers.client);
}
