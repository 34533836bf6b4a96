// An event stream id one character over the length of redeliver.path.id.length, in the real
// shape otherwise, so only a length check refuses it.
import type fc from 'fast-check';
import { closedLimit } from '../../specs/index.ts';
import { streamIdOfLength } from './stream-id-of-length.ts';

export function streamIdTooLong(): fc.Arbitrary<string> {
  return streamIdOfLength(closedLimit('redeliver.path.id.length').max + 1);
}
