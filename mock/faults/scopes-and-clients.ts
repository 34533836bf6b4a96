// Authorization (spec 5, 7): the scope each operation requires, and redelivery's global-client
// rule, forgotten or answered with the wrong status.
import { observed, type OperationKey } from '../../specs/index.ts';
import { faultFamily, type FaultRow } from './fault.ts';
import { editErrors } from './support/error-edits.ts';
import { replaceStatus, withStatus } from './support/route-edits.ts';
import { editPrincipal } from './support/verifier-edits.ts';

const UNAUTHORIZED = 401;
const FORBIDDEN = 403;

/** A permission table without an entry for the operation: every caller holds its scope. */
function noPermissionEntryFor(key: OperationKey): FaultRow['install'] {
  const scope = observed.operations[key].scope.value;
  return (app) => editPrincipal(app, (principal) => ({ ...principal, scopes: new Set([...principal.scopes, scope]) }));
}

export const scopeAndClientFaults = faultFamily([
  {
    id: 'ignores-scope',
    clause: 'redeliver.scope',
    bug: 'A permission table without an entry for redelivery: a valid token without update:event_deliveries is accepted (so no 403 either).',
    install: noPermissionEntryFor('redeliver'),
  },
  {
    id: 'ticket-ignores-scope',
    clause: 'sso-ticket.scope',
    bug: 'A permission table without an entry for ticket creation: a valid token without create:sso_access_tickets creates tickets.',
    install: noPermissionEntryFor('sso-ticket'),
  },
  {
    id: 'vault-ignores-scope',
    clause: 'vault.scope',
    bug: 'A permission table without an entry for the vault read: a valid token without read:flows_vault_connections reads connections.',
    install: noPermissionEntryFor('vault'),
  },
  {
    id: '401-instead-of-403',
    clause: 'redeliver.errors.403.scope',
    bug: 'One status for every authorization failure of redelivery: a token without update:event_deliveries is answered 401 instead of 403 (still a refusal).',
    install: (app) => replaceStatus(app, ['redeliver'], FORBIDDEN, UNAUTHORIZED),
  },
  {
    id: 'accepts-non-global-client',
    clause: 'redeliver.global-client',
    bug: 'A server that does not know which client is the tenant\'s global one treats every client as global: redelivery accepts a token of a client that is not global (so no 401 "Client is not global" either).',
    install: (app) => editPrincipal(app, (principal) => ({ ...principal, client: { ...principal.client, global: true } })),
  },
  {
    id: '403-for-non-global',
    clause: 'redeliver.errors.401.not-global',
    bug: '"The client is not global" filed under authorization: redelivery answers it 403 instead of 401 (still a refusal, same message).',
    install: (app) => editErrors(app, ['client_not_global'], (reply) => withStatus(reply, FORBIDDEN)),
  },
]);
