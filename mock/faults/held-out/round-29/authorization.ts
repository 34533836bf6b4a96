// Who may call: redelivery's permission in a Laminas RBAC where update:event_deliveries was made a
// child of update:event_streams (deliveries belong to a stream), an OPA policy whose comprehension
// flattens the parts of every held scope into one set before it looks for the action and the
// resource; and the observed rules: the ticket authorized by an Oso policy that derives it from the
// profile's create permission, and the ticket's unknown profile answered 404 by a PostgREST backend
// (its row-level security hides the row before the scope is judged). Each changes the answer to its
// near miss; other requests are answered as before.
import { cards } from '../../../../specs/cards/index.ts';
import { observed } from '../../../../specs/index.ts';
import type { Exchange } from '../../../exchange.ts';
import { capture } from '../../support/captured.ts';
import { editReplies, isErrorBody } from '../../support/route-edits.ts';
import { editPrincipal } from '../../support/verifier-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { answeredInstead } from '../support/answers.ts';
import { readScopesAt } from '../support/scope-claims.ts';

const REDELIVER_SCOPE = cards.redeliver.scope.value;
const TICKET_SCOPE = cards['sso-ticket'].scope.value;
/** The RBAC parent of redelivery's permission: the update permission of the stream it belongs to. */
const STREAM_UPDATE = 'update:event_streams';
/** The profile permission the Oso rule derives ticket creation from. */
const PROFILE_CREATE = 'create:self_service_profiles';
const INSUFFICIENT_SCOPE = 'insufficient_scope';
const PROFILE_SHAPE = observed.identifiers.self_service_profile;

const decodedOnce = (raw: string): string | undefined => {
  try {
    return decodeURIComponent(raw);
  } catch {
    return undefined;
  }
};
const profileOf = (exchange: Exchange) => (exchange.params.id === undefined ? undefined : decodedOnce(exchange.params.id));

export const authorizationFaults = heldOutFamily([
  {
    id: 'ho29-redeliver-laminas-rbac-parent',
    clause: 'redeliver.errors.403.scope',
    level: 'contract',
    bug: `A Laminas service whose Rbac declares ${REDELIVER_SCOPE} a child permission of the role that holds ${STREAM_UPDATE} (a delivery belongs to its stream, so whoever may update the stream was given its deliveries), and isGranted walks down to children: a token holding ${STREAM_UPDATE} and not ${REDELIVER_SCOPE} may redeliver (202 instead of 403); a token holding read:event_streams is still refused.`,
    install: (app) =>
      editPrincipal(app, (principal) =>
        principal.scopes.has(STREAM_UPDATE) && !principal.scopes.has(REDELIVER_SCOPE)
          ? { ...principal, scopes: new Set([...principal.scopes, REDELIVER_SCOPE]) }
          : principal,
      ),
  },
  {
    id: 'ho29-redeliver-opa-scope-parts-flattened',
    clause: 'redeliver.scope',
    level: 'contract',
    bug: `Redelivery authorized by an OPA policy written held := {p | p := split(input.scopes[_], ":")[_]}; allow { {"update", "event_deliveries"} - held == set() }, whose comprehension flattens the parts of every scope into one set: a token holding read:event_deliveries and update:event_streams (neither of them ${REDELIVER_SCOPE}) may redeliver (202 instead of 403); a token holding read:event_deliveries alone is still refused.`,
    install: (app) =>
      readScopesAt(app, 'redeliver', (scopes) => {
        const parts = new Set(scopes.flatMap((scope) => scope.split(':')));
        const [action, resource] = REDELIVER_SCOPE.split(':');
        return !scopes.includes(REDELIVER_SCOPE) && parts.has(action!) && parts.has(resource!) ? [...scopes, REDELIVER_SCOPE] : [...scopes];
      }),
  },
  {
    id: 'ho29-ticket-oso-profile-create',
    clause: 'sso-ticket.scope',
    level: 'observed',
    bug: `Ticket creation authorized by an Oso (Polar) policy in which a ticket is a relation of its profile, has_permission(actor, "create", ticket: SsoTicket) if has_permission(actor, "create", ticket.profile), with the profile's permission read from ${PROFILE_CREATE} beside the ticket's own: a token holding ${PROFILE_CREATE} and not ${TICKET_SCOPE} creates a ticket (201 instead of 403); a token holding read:self_service_profiles is still refused.`,
    install: (app) =>
      readScopesAt(app, 'sso-ticket', (scopes) =>
        scopes.includes(PROFILE_CREATE) && !scopes.includes(TICKET_SCOPE) ? [...scopes, TICKET_SCOPE] : [...scopes],
      ),
  },
  {
    id: 'ho29-ticket-postgrest-rls-before-scope',
    clause: 'auth.order',
    level: 'observed',
    bug: 'Ticket creation served by a PostgREST backend that reads the profile through a view under row-level security before the function that checks the scope runs, so an unknown (or hidden) profile is answered first: a valid token without create:sso_access_tickets and a well-formed unknown profile id is answered 404 instead of 403; with an existing profile it is still 403, and without a token still 401.',
    install: (app) => {
      const store = capture(app, 'store');
      const errors = capture(app, 'errors');
      editReplies(app, ['sso-ticket'], (reply, exchange) => {
        const profile = profileOf(exchange);
        return reply.status === 403 &&
          isErrorBody(reply.body) &&
          reply.body.errorCode === INSUFFICIENT_SCOPE &&
          profile !== undefined &&
          profile.startsWith(PROFILE_SHAPE.prefix) &&
          profile.length === PROFILE_SHAPE.length &&
          !store().profile(profile)
          ? answeredInstead(reply, errors().reply('profile_not_found', profile))
          : reply;
      });
    },
  },
]);
