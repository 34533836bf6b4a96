// What a verified caller may do: permissions kept as a 32-bit mask over the scope catalogue, whose
// shifts wrap; and the observed rules: a global client taken for a trusted first-party one whose
// tokens skip ticket creation's scope check, an implication table (update implies read) applied
// without the resource, and ticket requests naming a custom domain forwarded with the proxy's own
// service token. Each grants its near miss; other tokens are judged as before.
import { cards } from '../../../../specs/cards/index.ts';
import { scopeCatalogue } from '../../../../specs/index.ts';
import { capture } from '../../support/captured.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { readScopesOfRequestAt } from '../round-8/support/request-scopes.ts';
import { readScopesAt } from '../support/scope-claims.ts';

const REDELIVER_SCOPE = cards.redeliver.scope.value;
const TICKET_SCOPE = cards['sso-ticket'].scope.value;
const VAULT_SCOPE = cards.vault.scope.value;
const CUSTOM_DOMAIN_HEADERS = ['tenant-custom-domain', 'auth0-custom-domain'];

const INDEX = new Map(scopeCatalogue.map((scope, index) => [scope, index]));
const REDELIVER_INDEX = INDEX.get(REDELIVER_SCOPE)!;
/** The scopes whose bit, in a 32-bit mask, is the redelivery scope's. */
const SAME_BIT = scopeCatalogue.filter((scope, index) => scope !== REDELIVER_SCOPE && index % 32 === REDELIVER_INDEX % 32);
/** What each action implies, the resource left out. */
const IMPLIES: Record<string, string[]> = { update: ['read'] };

const actionOf = (scope: string) => scope.slice(0, Math.max(0, scope.indexOf(':')));

export const authorizationFaults = heldOutFamily([
  {
    id: 'ho16-scope-bitmask-wraps',
    clause: 'redeliver.scope',
    level: 'contract',
    bug: `Permissions kept as a bit mask over the scope catalogue (mask |= 1 << index; allowed = mask & (1 << needed)), where JavaScript's shifts take the count modulo 32 and the catalogue has ${scopeCatalogue.length} scopes: a token holding ${SAME_BIT[0]} (scope ${INDEX.get(SAME_BIT[0]!)}, the same bit as ${REDELIVER_SCOPE}'s ${REDELIVER_INDEX}; or ${SAME_BIT[1]}) may redeliver instead of 403; a token holding ${cards.redeliver.scope.otherResource} is still refused.`,
    install: (app) =>
      readScopesAt(app, 'redeliver', (scopes) => {
        const mask = scopes.reduce((bits, scope) => (INDEX.has(scope) ? bits | (1 << INDEX.get(scope)!) : bits), 0);
        return (mask & (1 << REDELIVER_INDEX)) !== 0 && !scopes.includes(REDELIVER_SCOPE) ? [...scopes, REDELIVER_SCOPE] : [...scopes];
      }),
  },
  {
    id: 'ho16-global-client-trusted-for-tickets',
    clause: 'sso-ticket.scope',
    level: 'observed',
    bug: `Rule 4's "global client" read as a trusted first-party client, whose tokens ticket creation lets through without its scope check (if (client.global) return next()): a token of a global client without ${TICKET_SCOPE} gets a ticket instead of 403; a token of a client that is not global without it is still refused.`,
    install: (app) => {
      const store = capture(app, 'store');
      readScopesAt(app, 'sso-ticket', (scopes, claims) =>
        typeof claims.azp === 'string' && store().client(claims.azp)?.global && !scopes.includes(TICKET_SCOPE)
          ? [...scopes, TICKET_SCOPE]
          : [...scopes],
      );
    },
  },
  {
    id: 'ho16-update-implies-read-any-resource',
    clause: 'vault.scope',
    level: 'observed',
    bug: `The vault read's check consulting an implication table of actions ({ update: ["read"] }, "who may change may see") that compares the actions and forgets to compare the resources: a token holding update:event_deliveries (or any update: scope) but not ${VAULT_SCOPE} reads a record instead of 403; a token holding create:event_streams is still refused.`,
    install: (app) =>
      readScopesAt(app, 'vault', (scopes) =>
        !scopes.includes(VAULT_SCOPE) && scopes.some((scope) => (IMPLIES[actionOf(scope)] ?? []).includes(actionOf(VAULT_SCOPE)))
          ? [...scopes, VAULT_SCOPE]
          : [...scopes],
      ),
  },
  {
    id: 'ho16-custom-domain-proxy-credential',
    clause: 'sso-ticket.scope',
    level: 'observed',
    bug: `Ticket requests that name a custom domain handed by the custom-domain proxy to the ticket service with the proxy's own service token (which holds ${TICKET_SCOPE}) in place of the caller's, the caller having been authenticated only (a confused deputy): a token without ${TICKET_SCOPE} gets a ticket when the request carries tenant-custom-domain instead of 403; without the header it is refused as before.`,
    install: (app) =>
      readScopesOfRequestAt(app, 'sso-ticket', (scopes, exchange) =>
        CUSTOM_DOMAIN_HEADERS.some((name) => typeof exchange.headers[name] === 'string') && !scopes.includes(TICKET_SCOPE)
          ? [...scopes, TICKET_SCOPE]
          : [...scopes],
      ),
  },
]);
