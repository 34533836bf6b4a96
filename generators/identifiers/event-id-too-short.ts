// An event id one character under the length of redeliver.path.event_id.length, in the real
// shape otherwise, so only a length check refuses it.
import type fc from 'fast-check';
import { closedLimit } from '../../specs/index.ts';
import { eventIdOfLength } from './event-id-of-length.ts';

export function eventIdTooShort(): fc.Arbitrary<string> {
  return eventIdOfLength(closedLimit('redeliver.path.event_id.length').min - 1);
}
