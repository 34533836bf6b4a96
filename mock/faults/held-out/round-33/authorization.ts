// Who may call: redelivery guarded by a NestJS ScopesGuard that reads the required scopes with
// Reflector.get(SCOPES, context.getClass()), the controller's, instead of the handler's. It changes
// the answer to its near miss; other requests are answered as before.
import { cards } from '../../../../specs/cards/index.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { readScopesAt } from '../support/scope-claims.ts';

const REDELIVER_SCOPE = cards.redeliver.scope.value;
/** The scope the event-streams controller is decorated with, for its read handlers. */
const CONTROLLER_SCOPE = 'read:event_streams';

export const authorizationFaults = heldOutFamily([
  {
    id: 'ho33-redeliver-nest-reflector-class-scopes',
    clause: 'redeliver.errors.403.scope',
    level: 'contract',
    bug: `A NestJS ScopesGuard that reads the scopes a route needs with this.reflector.get(SCOPES_KEY, context.getClass()) (the controller's @Scopes('${CONTROLLER_SCOPE}')) where it meant getAllAndOverride over the handler first, so the redelivery handler's @Scopes('${REDELIVER_SCOPE}') is never read: a token holding ${CONTROLLER_SCOPE} and not ${REDELIVER_SCOPE} may redeliver (202 instead of 403); a token holding read:event_deliveries alone is still refused.`,
    install: (app) =>
      readScopesAt(app, 'redeliver', (scopes) =>
        scopes.includes(CONTROLLER_SCOPE) && !scopes.includes(REDELIVER_SCOPE) ? [...scopes, REDELIVER_SCOPE] : [...scopes],
      ),
  },
]);
