// A server that keeps event ids in a column as wide as the spec's length cuts a longer id to that
// width before looking it up, so an existing event id with a character added is found.
import { closedLimit } from '../../specs/index.ts';
import type { Fault } from './fault.ts';
import { truncatePathId } from './support/path-id-edits.ts';

export const accepts27CharEventId: Fault = {
  id: 'accepts-27-char-event-id',
  clause: 'redeliver.path.event_id.length',
  description: 'Redelivery cuts an event id longer than 26 characters to 26 before looking it up, so an existing id with a character added is accepted (the observed 400 for a long event id goes too).',
  install(app) {
    truncatePathId(app, 'redeliver', 'event_id', closedLimit('redeliver.path.event_id.length').max);
  },
};
