// One "not found" message for both lookups of redelivery: an unknown event is told that the stream
// does not exist, so a client cannot tell which id was wrong.
import type { Fault } from './fault.ts';
import { editErrors } from './support/error-edits.ts';

export const missingEventToldStreamMissing: Fault = {
  id: 'missing-event-told-stream-missing',
  clause: 'errors.404.stream',
  description: 'Redelivery answers an unknown event with the unknown-stream message "The requested stream does not exist.".',
  install(app) {
    editErrors(app, (kind, reply, errors) => (kind === 'event_not_found' ? errors.reply('stream_not_found') : reply));
  },
};
