// A property name that is not one of the known ones: near misses of the known names first
// (ttlSec, connectionId, enabled_client), since a lenient server might take those, else any
// lower-case name.
import fc from 'fast-check';

export function unknownPropertyName(known: readonly string[]): fc.Arbitrary<string> {
  const taken = new Set(known);
  const nearMisses = [...new Set(known.flatMap(nearMissesOf))].filter(function isFree(name) {
    return !taken.has(name);
  });
  const anyName = fc.string({ unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz_'), minLength: 3, maxLength: 16 });
  const names = nearMisses.length > 0 ? fc.oneof(fc.constantFrom(...nearMisses), anyName) : anyName;
  return names.filter(function isUnknown(name) {
    return !taken.has(name);
  });
}

function nearMissesOf(name: string): string[] {
  const camelCase = name.replace(/_([a-z])/g, upperCaseOf);
  const singularOrPlural = name.endsWith('s') ? name.slice(0, -1) : `${name}s`;
  return [camelCase, singularOrPlural, name.toUpperCase()];
}

function upperCaseOf(_match: string, letter: string): string {
  return letter.toUpperCase();
}
