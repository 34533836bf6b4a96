// The observed shape an existing id has: the one whose prefix it carries, if any (client ids have
// no prefix).
import { observed, type IdentifierShape } from '../../specs/index.ts';

export function shapeOfId(id: string): IdentifierShape | undefined {
  return Object.values(observed.identifiers)
    .filter(isShape)
    .find(function carriesPrefix(candidate) {
      return candidate.prefix !== '' && id.startsWith(candidate.prefix);
    });
}

function isShape(entry: string | IdentifierShape): entry is IdentifierShape {
  return typeof entry === 'object';
}
