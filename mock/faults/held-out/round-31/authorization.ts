// Who may call: redelivery behind a Tyk gateway whose JWT scope-to-policy mapping gives the read
// scope of event deliveries a policy that opens the whole path, POST included. Other requests are
// answered as before.
import { cards } from '../../../../specs/cards/index.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { readScopesAt } from '../support/scope-claims.ts';

const REDELIVER_SCOPE = cards.redeliver.scope.value;
/** The scope Tyk's jwt_scope_to_policy_mapping maps to the deliveries policy. */
const READ_DELIVERIES = 'read:event_deliveries';

export const authorizationFaults = heldOutFamily([
  {
    id: 'ho31-redeliver-tyk-policy-per-path',
    clause: 'redeliver.scope',
    level: 'contract',
    bug: `Redelivery behind a Tyk gateway whose jwt_scope_to_policy_mapping maps ${READ_DELIVERIES} to the "event-deliveries" policy, and Tyk policies grant access by API and path (/event-streams/*/redeliver/*), every method allowed: a token holding ${READ_DELIVERIES} and not ${REDELIVER_SCOPE} may redeliver (202 instead of 403); a token holding read:event_streams is still refused.`,
    install: (app) =>
      readScopesAt(app, 'redeliver', (scopes) =>
        scopes.includes(READ_DELIVERIES) && !scopes.includes(REDELIVER_SCOPE) ? [...scopes, REDELIVER_SCOPE] : [...scopes],
      ),
  },
]);
