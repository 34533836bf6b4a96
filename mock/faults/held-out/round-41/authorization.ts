// Authorization: a Fastify route whose @fastify/auth list of checks is joined with the plugin's
// default relation; a Quarkus service whose groups separator does not split a space-separated scope.
// Other requests are judged as before.
import { cards } from '../../../../specs/cards/index.ts';
import { capture } from '../../support/captured.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { readScopesAt } from '../support/scope-claims.ts';

const TICKET_SCOPE = cards['sso-ticket'].scope.value;
const REDELIVER_SCOPE = cards.redeliver.scope.value;

export const authorizationFaults = heldOutFamily([
  {
    id: 'ho41-fastify-auth-default-or-relation',
    clause: 'sso-ticket.scope',
    level: 'observed',
    bug: `A Fastify ticket route with preHandler: fastify.auth([hasScope("${TICKET_SCOPE}"), isGlobalClient]) (the author meant both), and @fastify/auth joins its checks with relation "or" unless told "and": a token of a global client without ${TICKET_SCOPE} is given a ticket (201) instead of 403; a non-global client's token without it is still refused 403, and tokens with it are served as before.`,
    install: (app) => {
      const store = capture(app, 'store');
      readScopesAt(app, 'sso-ticket', (scopes, claims) =>
        typeof claims.azp === 'string' && store().client(claims.azp)?.global === true && !scopes.includes(TICKET_SCOPE)
          ? [...scopes, TICKET_SCOPE]
          : [...scopes],
      );
    },
  },
  {
    id: 'ho41-quarkus-groups-separator-comma',
    clause: 'redeliver.scope',
    level: 'contract',
    bug: `A Quarkus (SmallRye JWT) redelivery resource with @RolesAllowed("${REDELIVER_SCOPE}"), smallrye.jwt.path.groups=scope and smallrye.jwt.groups-separator="," (copied from a service whose identity provider wrote comma-separated groups): a scope claim with several space-separated scopes becomes one group that matches nothing, so a token holding ${REDELIVER_SCOPE} among other scopes is refused 403 instead of 202; a token whose scope is ${REDELIVER_SCOPE} alone is still served, and one without it is still refused.`,
    install: (app) => readScopesAt(app, 'redeliver', (scopes) => (scopes.length > 1 ? [] : [...scopes])),
  },
]);
