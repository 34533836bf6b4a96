// A small JSON scalar: the value of a property that should not be there, or an array's filler.
import fc from 'fast-check';

export function jsonScalar(): fc.Arbitrary<string | number | boolean | null> {
  return fc.oneof(fc.boolean(), fc.integer(), fc.string({ maxLength: 12 }), fc.constant(null));
}
