// What a verified caller may do: scopes matched by a typo-tolerant comparison, a client taken for
// global because it holds every scope of the interface, and the redelivery check returning early
// once the global-client rule passed; and the observed rules: a request's scope parameter meant to
// narrow the token applied as a union, and the vault permission worked out from the path's last
// segment. Each grants exactly that near miss; other tokens are judged as before.
import type { OperationKey } from '../../../../specs/index.ts';
import { cards } from '../../../../specs/cards/index.ts';
import { capture } from '../../support/captured.ts';
import { editPrincipal } from '../../support/verifier-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { readScopesAt } from '../support/scope-claims.ts';

const OPERATIONS: readonly OperationKey[] = ['redeliver', 'sso-ticket', 'vault'];
const REDELIVER_SCOPE = cards.redeliver.scope.value;
const TICKET_SCOPE = cards['sso-ticket'].scope.value;
const VAULT_SCOPE = cards.vault.scope.value;
/** The interface's own scopes, one per operation. */
const INTERFACE_SCOPES = OPERATIONS.map((key) => cards[key].scope.value);
/** read:<last static segment of the vault path>, as a method-and-path permission table derives it. */
const PATH_PERMISSION = 'read:connections';

/** Levenshtein distance, as the "did you mean" helper the check was built from computes it. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1)
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = current;
  }
  return previous[b.length]!;
}

export const authorizationFaults = heldOutFamily([
  {
    id: 'ho10-scope-matched-within-one-edit',
    clause: 'redeliver.scope',
    level: 'contract',
    bug: `The needed scope matched by the CLI's "did you mean" helper (an edit distance of at most 1 taken for a match): a token holding "${REDELIVER_SCOPE.slice(0, -1)}" (one letter short) is let redeliver instead of 403; "update:event_streams" is still refused.`,
    install: (app) =>
      readScopesAt(app, 'redeliver', (scopes) =>
        !scopes.includes(REDELIVER_SCOPE) && scopes.some((scope) => editDistance(scope, REDELIVER_SCOPE) <= 1)
          ? [...scopes, REDELIVER_SCOPE]
          : [...scopes],
      ),
  },
  {
    id: 'ho10-full-access-taken-for-global',
    clause: 'redeliver.global-client',
    level: 'contract',
    bug: `Whether a client is global worked out as "holds every scope of the interface" (${INTERFACE_SCOPES.join(', ')}), global being read as "full access": a non-global client whose token holds all of them is let redeliver (202) instead of 401; a non-global client holding only ${REDELIVER_SCOPE} is still refused 401.`,
    install: (app) =>
      editPrincipal(app, (principal) =>
        !principal.client.global && INTERFACE_SCOPES.every((scope) => principal.scopes.has(scope))
          ? { ...principal, client: { ...principal.client, global: true } }
          : principal,
      ),
  },
  {
    id: 'ho10-global-rule-returns-early',
    clause: 'redeliver.scope',
    level: 'contract',
    bug: `Redelivery's authorization written as if (client.global) return; ... with the scope check below it, meant for the non-global branch: a global client whose token lacks ${REDELIVER_SCOPE} is let redeliver (202) instead of 403; a non-global client is still refused 401, and the other operations still check their scopes.`,
    install: (app) => {
      const store = capture(app, 'store');
      readScopesAt(app, 'redeliver', (scopes, claims) =>
        typeof claims.azp === 'string' && store().client(claims.azp)?.global === true && !scopes.includes(REDELIVER_SCOPE)
          ? [...scopes, REDELIVER_SCOPE]
          : [...scopes],
      );
    },
  },
  {
    id: 'ho10-ticket-scope-query-union',
    clause: 'sso-ticket.scope',
    level: 'observed',
    bug: `A "scope" query parameter, meant to narrow what a request may do to part of its token's scopes, merged into them as a union: POST .../sso-ticket?scope=${TICKET_SCOPE} with a token lacking ${TICKET_SCOPE} gets a ticket instead of 403; the same request without the parameter is still refused.`,
    install: (app) => {
      let asked: string[] = [];
      readScopesAt(app, 'sso-ticket', (scopes) => [...new Set([...scopes, ...asked])]);
      app.wrapRoute('sso-ticket', (next) => (exchange) => {
        asked = (new URLSearchParams(exchange.query).get('scope') ?? '').split(' ').filter((s) => s.length > 0);
        return next(exchange);
      });
    },
  },
  {
    id: 'ho10-vault-permission-from-path-segment',
    clause: 'vault.scope',
    level: 'observed',
    bug: `The vault read's permission derived from a method-and-path table as read:<the path's last static segment>, "${PATH_PERMISSION}", which the tenant's scope catalogue also grants for its connections: a token holding ${PATH_PERMISSION} and not ${VAULT_SCOPE} reads the connection instead of 403; a token holding read:clients is still refused.`,
    install: (app) =>
      readScopesAt(app, 'vault', (scopes) =>
        scopes.includes(PATH_PERMISSION) && !scopes.includes(VAULT_SCOPE) ? [...scopes, VAULT_SCOPE] : [...scopes],
      ),
  },
]);
