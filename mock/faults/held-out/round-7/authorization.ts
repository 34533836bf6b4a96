// What a verified caller may do: scopes with their separators folded, a scope claim split on any
// whitespace, a scope found by a substring test, a global verdict remembered per issuer, and a
// ticket permitted by the parent resource's update scope. Each changes the decision for one near
// miss of a permitted caller; callers plainly without the permission are refused as before.
import { cards } from '../../../../specs/cards/index.ts';
import { editPrincipal } from '../../support/verifier-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { readScopesAt } from '../support/scope-claims.ts';

const REDELIVER_SCOPE = cards.redeliver.scope.value;
const TICKET_SCOPE = cards['sso-ticket'].scope.value;
/** The scope on the resource the ticket path sits under (/self-service-profiles/{id}/...). */
const PARENT_SCOPE = 'update:self_service_profiles';

export const authorizationFaults = heldOutFamily([
  {
    id: 'ho7-scope-separators-folded',
    clause: 'redeliver.errors.403.scope',
    level: 'contract',
    bug: `Redelivery's permission check normalises held scopes with replace(/-/g, "_") (written for resource names that came from URL slugs): a token holding "update:event-deliveries", which is no scope of the catalogue, is let redeliver instead of 403; "update:event-streams" is still refused.`,
    install: (app) => readScopesAt(app, 'redeliver', (scopes) => scopes.map((s) => s.replace(/-/g, '_'))),
  },
  {
    id: 'ho7-scope-split-on-any-whitespace',
    clause: 'redeliver.errors.403.scope',
    level: 'contract',
    bug: `Redelivery splits the scope claim with split(/\\s+/) where the claim is delimited by spaces only, so a tab or a no-break space also separates: a token whose one scope is "read:event_streams<TAB>${REDELIVER_SCOPE}" is let redeliver instead of 403; "read:event_streams<TAB>read:event_deliveries" is still refused.`,
    install: (app) => readScopesAt(app, 'redeliver', (scopes) => scopes.flatMap((s) => s.split(/\s+/)).filter((s) => s.length > 0)),
  },
  {
    id: 'ho7-scope-found-by-substring',
    clause: 'redeliver.errors.403.scope',
    level: 'contract',
    bug: `Redelivery tests the raw scope claim with claim.includes("${REDELIVER_SCOPE}") instead of looking the scope up among its space-separated items: a token holding "${REDELIVER_SCOPE}_history", which is no scope of the catalogue, is let redeliver instead of 403; a token holding only "update:event_streams" is still refused.`,
    install: (app) =>
      readScopesAt(app, 'redeliver', (scopes, claims) =>
        typeof claims.scope === 'string' && claims.scope.includes(REDELIVER_SCOPE) && !scopes.includes(REDELIVER_SCOPE)
          ? [...scopes, REDELIVER_SCOPE]
          : [...scopes],
      ),
  },
  {
    id: 'ho7-global-verdict-cached-per-issuer',
    clause: 'redeliver.errors.401.not-global',
    level: 'contract',
    bug: "The global-client verdict memoised per issuer (if (globalByIssuer.get(iss)) return true), the cache filled when a global client is seen: once a global client has called, a non-global client's token of the same tenant is let redeliver instead of 401; a non-global client calling before any global one is still refused.",
    install: (app) => {
      const seen = new Set<string>();
      editPrincipal(app, (principal) => {
        const iss = typeof principal.claims.iss === 'string' ? principal.claims.iss : undefined;
        if (iss === undefined) return principal;
        if (principal.client.global) {
          seen.add(iss);
          return principal;
        }
        return seen.has(iss) ? { ...principal, client: { ...principal.client, global: true } } : principal;
      });
    },
  },
  {
    id: 'ho7-ticket-permitted-by-parent-update',
    clause: 'sso-ticket.scope',
    level: 'observed',
    bug: `Ticket creation also permits the update scope of the resource its path sits under (${PARENT_SCOPE}, since the ticket "belongs" to the profile): a token holding ${PARENT_SCOPE} but not ${TICKET_SCOPE} is given a ticket instead of 403; a token holding read:self_service_profiles is still refused.`,
    install: (app) =>
      readScopesAt(app, 'sso-ticket', (scopes) =>
        scopes.includes(PARENT_SCOPE) && !scopes.includes(TICKET_SCOPE) ? [...scopes, TICKET_SCOPE] : [...scopes],
      ),
  },
]);
