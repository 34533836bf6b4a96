// A server that finds streams with a prefix query (LIKE 'id%') instead of an exact match accepts an
// existing stream id with its last character missing.
import { closedLimit } from '../../specs/index.ts';
import type { Fault } from './fault.ts';
import { resolvePathIdByPrefix } from './support/path-id-edits.ts';

export const accepts25CharStreamId: Fault = {
  id: 'accepts-25-char-stream-id',
  clause: 'redeliver.path.id.length',
  description: 'Redelivery looks stream ids up by prefix, so an existing id with its last character removed is accepted (the observed 400 for a short stream id goes too).',
  install(app) {
    resolvePathIdByPrefix(app, 'redeliver', 'id', closedLimit('redeliver.path.id.length').min, (store, id) => store.stream(id) !== undefined);
  },
};
