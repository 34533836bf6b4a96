// An existing id with its last characters removed: catches a server that finds resources by
// prefix. The cut is at the end because that is what a prefix match forgives; the result is one
// value, an arbitrary only so it composes with the others.
import fc from 'fast-check';

export function truncatedId(existing: string, count: number): fc.Arbitrary<string> {
  if (!Number.isInteger(count) || count < 1 || count >= existing.length) {
    throw new RangeError(`cannot remove ${count} characters from an id of ${existing.length}`);
  }
  return fc.constant(existing.slice(0, existing.length - count));
}
