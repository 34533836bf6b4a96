// Ids of resources that do not exist: drawn from a valid-shape arbitrary and never one of the
// known ids, so a real target answers 404 and not a format error. Case is ignored when comparing,
// so a server that looks ids up case-insensitively cannot find one either.
import type fc from 'fast-check';

export function unknownIdOf(ids: fc.Arbitrary<string>, known: readonly string[]): fc.Arbitrary<string> {
  const taken = new Set(known.map(foldCase));
  return ids.filter(function isUnknown(id) {
    return !taken.has(foldCase(id));
  });
}

function foldCase(id: string): string {
  return id.toLowerCase();
}
