// An existing id with one whitespace character (a space or a tab) before or after it: a different
// id, which only a server that trims ids before the lookup (a form-binding habit) takes for the
// existing one.
import fc from 'fast-check';

const PADDING = [' ', '\t'];

export function paddedId(existing: string): fc.Arbitrary<string> {
  return fc.tuple(fc.constantFrom(...PADDING), fc.boolean()).map(padding(existing));
}

function padding(existing: string): (choice: [string, boolean]) => string {
  return function padded([space, before]) {
    return before ? space + existing : existing + space;
  };
}
