// connection_config names the observed rules refuse: empty, over the maximum length, a hyphen at
// either end or doubled, or a character other than letters, digits and hyphens.
import fc from 'fast-check';
import { observed } from '../../specs/index.ts';
import { connectionName } from './connection-name.ts';
import { keywordAt } from './ticket-schema.ts';

const NAME = ['connection_config', 'name'];
const FOREIGN_CHARACTERS = [' ', '_', '.', '/', '@', 'é'];
const OVERSHOOT = 20;

export function malformedConnectionName(): fc.Arbitrary<string> {
  const min = keywordAt('observed', NAME, 'minLength');
  const max = keywordAt('observed', NAME, 'maxLength');
  const character = fc.constantFrom(...observed.identifiers.alphanumeric_alphabet);
  const tooShort = fc.integer({ min: 0, max: min - 1 }).chain(function nameOfLength(length) {
    return fc.string({ unit: character, minLength: length, maxLength: length });
  });
  const tooLong = fc.integer({ min: max + 1, max: max + OVERSHOOT }).chain(function nameOfLength(length) {
    return fc.string({ unit: character, minLength: length, maxLength: length });
  });
  const patternBreaker = fc
    .oneof(
      connectionName().map(withLeadingHyphen),
      connectionName().map(withTrailingHyphen),
      fc.tuple(connectionName(), connectionName()).map(joinedWithDoubleHyphen),
      fc.tuple(connectionName(), fc.constantFrom(...FOREIGN_CHARACTERS), fc.nat()).map(withCharacterInserted),
    )
    .filter(fitsIn(max));
  return fc.oneof(tooShort, tooLong, patternBreaker);
}

function withLeadingHyphen(name: string): string {
  return `-${name.slice(1)}`;
}

function withTrailingHyphen(name: string): string {
  return `${name.slice(0, -1)}-`;
}

function joinedWithDoubleHyphen([first, second]: [string, string]): string {
  return `${first}--${second}`;
}

function withCharacterInserted([name, character, position]: [string, string, number]): string {
  const at = position % (name.length + 1);
  return name.slice(0, at) + character + name.slice(at);
}

/** Pattern breakers stay within the length bound, so the pattern is all they break. */
function fitsIn(max: number): (name: string) => boolean {
  return function fits(name) {
    return name.length <= max;
  };
}
