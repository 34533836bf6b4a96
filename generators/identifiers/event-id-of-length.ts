// An event id with the observed prefix and alphabet but any total length: "realistic but wrong" when the
// length is off the limit.
import type fc from 'fast-check';
import { observed } from '../../specs/index.ts';
import { idOfShape } from './id-of-shape.ts';

export function eventIdOfLength(length: number): fc.Arbitrary<string> {
  return idOfShape(observed.identifiers.event, { length });
}
