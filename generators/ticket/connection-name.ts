// A connection_config name of the observed form (letters and digits, single inner hyphens, length
// within the observed bounds). It always carries a random part: the real service answers 409 to a
// name that already exists, and a valid body must not run into that.
import fc from 'fast-check';
import { observed } from '../../specs/index.ts';
import { keywordAt } from './ticket-schema.ts';

const NAME = ['connection_config', 'name'];
/** Random alphanumerics in every name: 62^10 names, so two runs do not meet. */
const UNIQUE_PART_LENGTH = 10;

export function connectionName(): fc.Arbitrary<string> {
  const max = keywordAt('observed', NAME, 'maxLength');
  const character = fc.constantFrom(...observed.identifiers.alphanumeric_alphabet);
  const word = fc.string({ unit: character, minLength: 1, maxLength: 10 });
  const uniquePart = fc.string({ unit: character, minLength: UNIQUE_PART_LENGTH, maxLength: UNIQUE_PART_LENGTH });
  const everyday = fc
    .tuple(fc.array(word, { maxLength: 3 }), uniquePart)
    .map(joinedWithHyphens)
    .filter(fitsIn(max));
  const atMaximum = fc.string({ unit: character, minLength: max, maxLength: max });
  return fc.oneof({ arbitrary: everyday, weight: 4 }, { arbitrary: atMaximum, weight: 1 });
}

function joinedWithHyphens([words, uniquePart]: [string[], string]): string {
  return [...words, uniquePart].join('-');
}

function fitsIn(max: number): (name: string) => boolean {
  return function fits(name) {
    return name.length <= max;
  };
}
