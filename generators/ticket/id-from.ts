// An id drawn from a given list, or from a shape arbitrary when no list is given; undefined when
// the list is empty (the field that would hold it is left out).
import fc from 'fast-check';

export function idFrom(given: readonly string[] | undefined, otherwise: () => fc.Arbitrary<string>): fc.Arbitrary<string> | undefined {
  if (given === undefined) return otherwise();
  return given.length === 0 ? undefined : fc.constantFrom(...given);
}
