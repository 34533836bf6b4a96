// An event stream id of the observed shape (est_ and base58), so a target answers about existence.
import type fc from 'fast-check';
import { observed } from '../../specs/index.ts';
import { idOfShape } from './id-of-shape.ts';

export function streamId(): fc.Arbitrary<string> {
  return idOfShape(observed.identifiers.event_stream);
}
