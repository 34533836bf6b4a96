// A server that upserts the delivery record of the event it is asked to redeliver: an event id the
// stream never had gets a fresh failed record and is accepted.
import type { Fault } from './fault.ts';
import { editStore } from './support/store-view.ts';

export const accepted202ForMissingEvent: Fault = {
  id: '202-for-missing-event',
  clause: 'redeliver.errors.404.event',
  description: 'Redelivery creates a failed delivery record for an event the stream does not have, so an unknown event answers 202 instead of 404.',
  install(app) {
    editStore(app, (store) => ({
      event: (streamId, eventId) => store.event(streamId, eventId) ?? (store.stream(streamId) ? { id: eventId, streamId, status: 'failed', redeliveries: 0 } : undefined),
    }));
  },
};
