// The alphabet an existing id is written in: that of the observed shape whose prefix it carries,
// else the alphanumerics (the shape of prefix-less client ids).
import { alphabetOf, observed } from '../../specs/index.ts';
import { shapeOfId } from './shape-of-id.ts';

export function alphabetOfId(id: string): string {
  const shape = shapeOfId(id);
  return shape ? alphabetOf(shape) : observed.identifiers.alphanumeric_alphabet;
}
