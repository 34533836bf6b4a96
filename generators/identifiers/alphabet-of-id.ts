// The alphabet an existing id is written in: that of the observed shape whose prefix it carries,
// else the alphanumerics (the shape of prefix-less client ids).
import { alphabetOf, observed, type IdentifierShape } from '../../specs/index.ts';

export function alphabetOfId(id: string): string {
  const shape = Object.values(observed.identifiers).filter(isShape).find(function carriesPrefix(candidate) {
    return candidate.prefix !== '' && id.startsWith(candidate.prefix);
  });
  return shape ? alphabetOf(shape) : observed.identifiers.alphanumeric_alphabet;
}

function isShape(entry: string | IdentifierShape): entry is IdentifierShape {
  return typeof entry === 'object';
}
