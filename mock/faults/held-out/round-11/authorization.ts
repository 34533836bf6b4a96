// What a verified caller may do: a scope predicate written with "=" for "===", and a namespaced
// claim of the token read as the client's global setting, scopes compared by a collator that
// ignores punctuation; and the observed rules: the ticket's
// scope check moved to an asynchronous permission service and called without await, and the vault
// read's scopes taken from the description's empty x-required-scopes list. Each grants its near miss; other tokens are
// judged as before.
import { cards } from '../../../../specs/cards/index.ts';
import { editPrincipal } from '../../support/verifier-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { readScopesAt } from '../support/scope-claims.ts';

const REDELIVER_SCOPE = cards.redeliver.scope.value;
const VAULT_SCOPE = cards.vault.scope.value;
const TICKET_SCOPE = cards['sso-ticket'].scope.value;
/** The claim a tenant's post-login code adds to carry a setting, namespaced as custom claims must be. */
const GLOBAL_CLAIM = 'https://tenant.example.com/global';

export const authorizationFaults = heldOutFamily([
  {
    id: 'ho11-scope-predicate-assignment',
    clause: 'redeliver.scope',
    level: 'contract',
    bug: `Redelivery's scope check written scopes.some((scope) => scope = "${REDELIVER_SCOPE}"), an assignment where === was meant, which is truthy for every item: a token holding any scope at all, say only read:event_deliveries, is let redeliver (202) instead of 403; a token whose scope claim is empty is still refused 403.`,
    install: (app) =>
      readScopesAt(app, 'redeliver', (scopes) =>
        scopes.length > 0 && !scopes.includes(REDELIVER_SCOPE) ? [...scopes, REDELIVER_SCOPE] : [...scopes],
      ),
  },
  {
    id: 'ho11-global-from-namespaced-claim',
    clause: 'redeliver.global-client',
    level: 'contract',
    bug: `Whether the client is global read from the token's namespaced claim "${GLOBAL_CLAIM}" when it has one (a claim a tenant's own code adds, trusted because the token is signed) instead of from the client's record: a non-global client's token carrying "${GLOBAL_CLAIM}": true is let redeliver (202) instead of 401; the same token with the claim false, or without it, is still refused 401.`,
    install: (app) =>
      editPrincipal(app, (principal) =>
        !principal.client.global && principal.claims[GLOBAL_CLAIM] === true
          ? { ...principal, client: { ...principal.client, global: true } }
          : principal,
      ),
  },
  {
    id: 'ho11-ticket-scope-check-not-awaited',
    clause: 'sso-ticket.scope',
    level: 'observed',
    bug: `The ticket route's scope check moved to an asynchronous permission service and called as if (!permissions.allows(token, "${TICKET_SCOPE}")) refuse, without await: the promise is truthy, so a token without ${TICKET_SCOPE} gets a ticket (201) instead of 403; the vault read, whose check stayed synchronous, still refuses a token without its scope.`,
    install: (app) =>
      readScopesAt(app, 'sso-ticket', (scopes) => (scopes.includes(TICKET_SCOPE) ? [...scopes] : [...scopes, TICKET_SCOPE])),
  },
  {
    id: 'ho11-vault-scopes-from-spec-list',
    clause: 'vault.scope',
    level: 'observed',
    bug: `The vault read's permission taken from the operation's x-required-scopes in the published description, which lists none ([]), and an empty list of required scopes read as "any authenticated caller": a token without ${VAULT_SCOPE} reads the connection (200) instead of 403; a request without a token is still refused 401.`,
    install: (app) => readScopesAt(app, 'vault', (scopes) => (scopes.includes(VAULT_SCOPE) ? [...scopes] : [...scopes, VAULT_SCOPE])),
  },
  {
    id: 'ho11-scope-collator-ignores-punctuation',
    clause: 'redeliver.errors.403.scope',
    level: 'contract',
    bug: `The held scopes compared with the needed one by the Intl.Collator the admin screens sort with, created with { ignorePunctuation: true }, a match being compare() === 0: a token holding "update.event-deliveries" (or "updateevent_deliveries") is let redeliver (202) instead of 403; a token holding read:event_deliveries is still refused 403.`,
    install: (app) => {
      const collator = new Intl.Collator('en', { ignorePunctuation: true });
      readScopesAt(app, 'redeliver', (scopes) =>
        !scopes.includes(REDELIVER_SCOPE) && scopes.some((scope) => collator.compare(scope, REDELIVER_SCOPE) === 0)
          ? [...scopes, REDELIVER_SCOPE]
          : [...scopes],
      );
    },
  },
]);
