// A server that keeps stream ids in a column as wide as the spec's length cuts a longer id to that
// width before looking it up, so an existing stream id with a character added is found.
import { closedLimit } from '../../specs/index.ts';
import type { Fault } from './fault.ts';
import { truncatePathId } from './support/path-id-edits.ts';

export const accepts27CharStreamId: Fault = {
  id: 'accepts-27-char-stream-id',
  clause: 'redeliver.path.id.length',
  description: 'Redelivery cuts a stream id longer than 26 characters to 26 before looking it up, so an existing id with a character added is accepted.',
  install(app) {
    truncatePathId(app, 'redeliver', 'id', closedLimit('redeliver.path.id.length').max);
  },
};
