// The last label of a host name: letters only, because a numeric last label makes URL parsers
// read the whole host as an IPv4 address.
import fc from 'fast-check';

export function topLevelLabelOfLength(length: number): fc.Arbitrary<string> {
  if (!Number.isInteger(length) || length < 1) throw new RangeError(`a label cannot have ${length} characters`);
  return fc.string({ unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz'), minLength: length, maxLength: length });
}
