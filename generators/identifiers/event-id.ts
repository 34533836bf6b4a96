// An event id of the observed shape (evt_ and base58).
import type fc from 'fast-check';
import { observed } from '../../specs/index.ts';
import { idOfShape } from './id-of-shape.ts';

export function eventId(): fc.Arbitrary<string> {
  return idOfShape(observed.identifiers.event);
}
