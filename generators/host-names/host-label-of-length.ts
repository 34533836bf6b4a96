// One label of a host name: lower-case letters, digits and inner hyphens, never "xn--" (a
// punycode prefix that URL parsers decode and may reject).
import fc from 'fast-check';

const LETTERS_AND_DIGITS = 'abcdefghijklmnopqrstuvwxyz0123456789';
const INNER = `${LETTERS_AND_DIGITS}-`;

export function hostLabelOfLength(length: number): fc.Arbitrary<string> {
  if (!Number.isInteger(length) || length < 1) throw new RangeError(`a label cannot have ${length} characters`);
  const edge = fc.constantFrom(...LETTERS_AND_DIGITS);
  if (length === 1) return edge;
  const inner = fc.string({ unit: fc.constantFrom(...INNER), minLength: length - 2, maxLength: length - 2 });
  return fc.tuple(edge, inner, edge).map(joined).filter(isNotPunycode);
}

function joined(parts: readonly string[]): string {
  return parts.join('');
}

function isNotPunycode(label: string): boolean {
  return !label.startsWith('xn--');
}
