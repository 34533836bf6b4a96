// A server that never looks at the event's delivery state redelivers any event, delivered or
// pending ones included.
import type { Fault } from './fault.ts';
import { editStore } from './support/store-view.ts';

export const accepted202ForNonRedeliverableEvent: Fault = {
  id: '202-for-non-redeliverable-event',
  clause: 'redeliver.errors.409.state',
  description: 'Redelivery ignores the event state, so an event that was delivered answers 202 instead of 409.',
  install(app) {
    editStore(app, (store) => ({
      event(streamId, eventId) {
        const event = store.event(streamId, eventId);
        return event && { ...event, status: 'failed' };
      },
    }));
  },
};
