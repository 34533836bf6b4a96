// A permission table without an entry for redelivery: every valid token may redeliver, whatever
// its scopes.
import { observed } from '../../specs/index.ts';
import type { Fault } from './fault.ts';
import { editPrincipal } from './support/verifier-edits.ts';

const REDELIVER_SCOPE = observed.operations.redeliver.scope.value;

export const ignoresScope: Fault = {
  id: 'ignores-scope',
  clause: 'redeliver.scope',
  description: 'Redelivery does not require update:event_deliveries: a valid token without it is accepted (so no 403 either).',
  install(app) {
    editPrincipal(app, (principal) => ({ ...principal, scopes: new Set([...principal.scopes, REDELIVER_SCOPE]) }));
  },
};
