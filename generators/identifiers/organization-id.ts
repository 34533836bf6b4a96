// An organization id of the observed shape (org_ and alphanumerics).
import type fc from 'fast-check';
import { observed } from '../../specs/index.ts';
import { idOfShape } from './id-of-shape.ts';

export function organizationId(): fc.Arbitrary<string> {
  return idOfShape(observed.identifiers.organization);
}
