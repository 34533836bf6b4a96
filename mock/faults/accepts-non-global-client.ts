// A server that does not know which client is the tenant's global one treats every client as
// global, so redelivery accepts tokens of regular clients.
import type { Fault } from './fault.ts';
import { editPrincipal } from './support/verifier-edits.ts';

export const acceptsNonGlobalClient: Fault = {
  id: 'accepts-non-global-client',
  clause: 'redeliver.global-client',
  description: 'Redelivery accepts a token of a client that is not global (so no 401 "Client is not global" either).',
  install(app) {
    editPrincipal(app, (principal) => ({ ...principal, client: { ...principal.client, global: true } }));
  },
};
