// A server that finds events with a prefix query (LIKE 'id%') instead of an exact match accepts an
// existing event id with its last character missing.
import { closedLimit } from '../../specs/index.ts';
import type { Fault } from './fault.ts';
import { resolvePathIdByPrefix } from './support/path-id-edits.ts';

export const accepts25CharEventId: Fault = {
  id: 'accepts-25-char-event-id',
  clause: 'redeliver.path.event_id.length',
  description: 'Redelivery looks event ids up by prefix, so an existing id with its last character removed is accepted.',
  install(app) {
    resolvePathIdByPrefix(app, 'redeliver', 'event_id', closedLimit('redeliver.path.event_id.length').min, (store, id, params) => store.event(params.id ?? '', id) !== undefined);
  },
};
