// A host name of exactly `length` characters: labels joined by dots, ending in a top-level label
// of letters ("a1-b.example.io"). Under four characters there is no room for "x.yz", so the name
// is a single label of letters, still a plausible host ("ab", "abc"). Names over 253 characters
// are not resolvable, but they are the strings a length limit of 255 is about.
import fc from 'fast-check';
import { hostLabelOfLength } from './host-label-of-length.ts';
import { LONGEST_LABEL, labelLengths } from './label-lengths.ts';
import { topLevelLabelOfLength } from './top-level-label-of-length.ts';

/** "a.io": one character, a dot and a two-letter top-level label. */
const SHORTEST_DOTTED = 4;
const SHORTEST_TOP_LEVEL = 2;
const LONGEST_TOP_LEVEL = 6;

interface LabelPlan {
  topLevel: number;
  preferred: number[];
}

export function hostNameOfLength(length: number): fc.Arbitrary<string> {
  if (!Number.isInteger(length) || length < 1) throw new RangeError(`a host name cannot have ${length} characters`);
  if (length < SHORTEST_DOTTED) return topLevelLabelOfLength(length);
  const plan = fc.record(
    {
      topLevel: fc.integer({ min: SHORTEST_TOP_LEVEL, max: Math.min(LONGEST_TOP_LEVEL, length - 2) }),
      preferred: fc.array(fc.integer({ min: 1, max: LONGEST_LABEL }), { minLength: 1, maxLength: 8 }),
    },
    { noNullPrototype: true },
  );
  return plan.chain(labelsOfPlan(length)).map(joinedWithDots);
}

function labelsOfPlan(length: number): (plan: LabelPlan) => fc.Arbitrary<string[]> {
  return function labels({ topLevel, preferred }) {
    const lengths = labelLengths(length - topLevel - 1, preferred);
    return fc.tuple(...lengths.map(hostLabelOfLength), topLevelLabelOfLength(topLevel));
  };
}

function joinedWithDots(labels: readonly string[]): string {
  return labels.join('.');
}
