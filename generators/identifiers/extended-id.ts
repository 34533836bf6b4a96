// An existing id with characters of its own alphabet appended: catches a server that truncates
// ids to the expected length or matches them by prefix, and so finds a resource it should not.
import fc from 'fast-check';
import { alphabetOfId } from './alphabet-of-id.ts';

export interface ExtendedIdConstraints {
  /** Characters to append from. Default: the alphabet of the id's observed shape. */
  alphabet?: string;
}

export function extendedId(existing: string, count: number, constraints: ExtendedIdConstraints = {}): fc.Arbitrary<string> {
  if (!Number.isInteger(count) || count < 1) throw new RangeError(`extendedId appends at least one character, not ${count}`);
  const character = fc.constantFrom(...(constraints.alphabet ?? alphabetOfId(existing)));
  return fc.string({ unit: character, minLength: count, maxLength: count }).map(appendedTo(existing));
}

function appendedTo(existing: string): (tail: string) => string {
  return function appended(tail) {
    return existing + tail;
  };
}
