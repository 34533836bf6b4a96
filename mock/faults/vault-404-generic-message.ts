// An unknown connection answered by the framework's generic 404 instead of the service's own
// "Connection not found".
import type { Fault } from './fault.ts';
import { editErrors } from './support/error-edits.ts';

export const vault404GenericMessage: Fault = {
  id: 'vault-404-generic-message',
  clause: 'errors.404.vault',
  description: 'An unknown vault connection is answered 404 with the generic message "Not Found" instead of "Connection not found".',
  install(app) {
    editErrors(app, (kind, reply, errors) => (kind === 'vault_connection_not_found' ? errors.reply('route_not_found') : reply));
  },
};
