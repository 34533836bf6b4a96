// What a verified caller may do: a held scope taken as a prefix of the permissions it grants, the
// global-client rule skipped for holders of the streams' update scope, a redelivery that carries a
// body judged by the batch handler's read scope; and the observed rule: a hand-written test of the
// ticket scope that looks at the ends of the claim only. Each changes the decision for one near
// miss of a permitted caller; callers plainly without the permission are refused as before.
import { cards } from '../../../../specs/cards/index.ts';
import { editPrincipal } from '../../support/verifier-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { readScopesAt } from '../support/scope-claims.ts';
import { readScopesOfRequestAt } from './support/request-scopes.ts';

const REDELIVER_SCOPE = cards.redeliver.scope.value;
const TICKET_SCOPE = cards['sso-ticket'].scope.value;
/** The scope over the streams themselves, which the slip treats as an administrator's. */
const STREAMS_UPDATE = 'update:event_streams';
/** The scope the batch form of redelivery (a body of event ids) was written to ask for. */
const BATCH_SCOPE = 'read:event_deliveries';

export const authorizationFaults = heldOutFamily([
  {
    id: 'ho8-held-scope-as-prefix',
    clause: 'redeliver.errors.403.scope',
    level: 'contract',
    bug: `Redelivery's permission check treats a held scope as granting every permission it is a prefix of (needed.startsWith(held), for hierarchical scopes): a token holding "update:event", which is no scope of the catalogue, is let redeliver instead of 403; a token holding "update:event_streams" is still refused.`,
    install: (app) =>
      readScopesAt(app, 'redeliver', (scopes) =>
        !scopes.includes(REDELIVER_SCOPE) && scopes.some((held) => REDELIVER_SCOPE.startsWith(held))
          ? [...scopes, REDELIVER_SCOPE]
          : [...scopes],
      ),
  },
  {
    id: 'ho8-global-rule-skipped-for-stream-admins',
    clause: 'redeliver.errors.401.not-global',
    level: 'contract',
    bug: `The global-client rule written as the else branch of a shortcut for stream administrators (if (scopes.has("${STREAMS_UPDATE}")) allow; else if (!client.global) 401): a non-global client whose token holds ${REDELIVER_SCOPE} and ${STREAMS_UPDATE} is let redeliver instead of 401; a non-global client holding ${REDELIVER_SCOPE} alone is still refused.`,
    install: (app) =>
      editPrincipal(app, (principal) =>
        !principal.client.global && principal.scopes.has(STREAMS_UPDATE)
          ? { ...principal, client: { ...principal.client, global: true } }
          : principal,
      ),
  },
  {
    id: 'ho8-redeliver-with-body-checked-as-read',
    clause: 'redeliver.errors.403.scope',
    level: 'contract',
    bug: `A redelivery request that carries a body goes through the batch handler, which asks for ${BATCH_SCOPE}: a token holding ${BATCH_SCOPE} but not ${REDELIVER_SCOPE} is let redeliver when the request carries the body {} instead of 403; the same request without a body is still refused.`,
    install: (app) =>
      readScopesOfRequestAt(app, 'redeliver', (scopes, exchange) =>
        exchange.body.length > 0 && scopes.includes(BATCH_SCOPE) && !scopes.includes(REDELIVER_SCOPE)
          ? [...scopes, REDELIVER_SCOPE]
          : [...scopes],
      ),
  },
  {
    id: 'ho8-ticket-scope-missed-in-middle',
    clause: 'sso-ticket.scope',
    level: 'observed',
    bug: `Ticket creation tests the scope claim by hand (scope === s || scope.startsWith(s + " ") || scope.endsWith(" " + s)), which forgets the items in between: a token holding ${TICKET_SCOPE} between two other scopes is refused 403 instead of given a ticket; the same scope first or last in the claim is still accepted.`,
    install: (app) =>
      readScopesAt(app, 'sso-ticket', (scopes) => {
        const at = scopes.indexOf(TICKET_SCOPE);
        return at > 0 && at < scopes.length - 1 ? scopes.filter((scope) => scope !== TICKET_SCOPE) : [...scopes];
      }),
  },
]);
