// An existing id with one letter of its random part in the other case, where both cases belong to
// the id's alphabet (base58 has neither I, O nor l): the result has the id's shape, so a real
// target answers it as a resource that does not exist, and only a server that looks ids up
// ignoring case (a case-insensitive collation) finds the existing one.
import fc from 'fast-check';
import { alphabetOfId } from './alphabet-of-id.ts';
import { shapeOfId } from './shape-of-id.ts';

export function idInOtherCase(existing: string): fc.Arbitrary<string> {
  const alphabet = alphabetOfId(existing);
  const start = shapeOfId(existing)?.prefix.length ?? 0;
  const flippable = [...existing].flatMap((c, at) => (at >= start && otherCase(c) !== c && alphabet.includes(otherCase(c)) ? [at] : []));
  if (flippable.length === 0) throw new RangeError(`${existing} has no letter whose other case its alphabet holds`);
  return fc.constantFrom(...flippable).map(flippedAt(existing));
}

/** One character in the other letter case (itself where it has none). */
export function otherCase(character: string): string {
  return character === character.toUpperCase() ? character.toLowerCase() : character.toUpperCase();
}

function flippedAt(existing: string): (at: number) => string {
  return function flipped(at) {
    return existing.slice(0, at) + otherCase(existing[at]!) + existing.slice(at + 1);
  };
}
