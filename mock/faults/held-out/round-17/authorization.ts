// What a verified caller may do: scopes compared after lower-casing, an action wildcard granted,
// a resource's plural taken for its singular, and a scope claim split on commas as well as spaces.
// Each grants its near miss; other tokens are judged as before.
import { cards } from '../../../../specs/cards/index.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { readScopesAt } from '../support/scope-claims.ts';

const REDELIVER_SCOPE = cards.redeliver.scope.value;
const TICKET_SCOPE = cards['sso-ticket'].scope.value;
const VAULT_SCOPE = cards.vault.scope.value;
const singular = (scope: string) => scope.replace(/s$/, '');

export const authorizationFaults = heldOutFamily([
  {
    id: 'ho17-scope-case-folded',
    clause: 'redeliver.scope',
    level: 'contract',
    bug: `Scopes compared after toLowerCase() (normalised like header names): a token holding ${REDELIVER_SCOPE.toUpperCase()} may redeliver instead of 403; a token holding another scope in upper case is still refused.`,
    install: (app) => readScopesAt(app, 'redeliver', (scopes) => scopes.map((scope) => scope.toLowerCase())),
  },
  {
    id: 'ho17-action-wildcard-granted',
    clause: 'redeliver.errors.403.scope',
    level: 'contract',
    bug: `A glob matcher (minimatch) used for scopes, so "<action>:*" matches every resource: a token holding ${REDELIVER_SCOPE.split(':')[0]}:* may redeliver instead of 403; read:* is still refused.`,
    install: (app) =>
      readScopesAt(app, 'redeliver', (scopes) =>
        scopes.includes(`${REDELIVER_SCOPE.split(':')[0]}:*`) ? [...scopes, REDELIVER_SCOPE] : [...scopes],
      ),
  },
  {
    id: 'ho17-vault-scope-plural-folded',
    clause: 'vault.scope',
    level: 'observed',
    bug: `Scope resources compared after a pluralize.singular() step: a token holding ${singular(VAULT_SCOPE) === VAULT_SCOPE ? `${VAULT_SCOPE}s` : singular(VAULT_SCOPE)} may read a connection instead of 403; another resource is still refused.`,
    install: (app) =>
      readScopesAt(app, 'vault', (scopes) =>
        scopes.some((scope) => scope !== VAULT_SCOPE && singular(scope) === singular(VAULT_SCOPE)) ? [...scopes, VAULT_SCOPE] : [...scopes],
      ),
  },
  {
    id: 'ho17-ticket-scope-comma-split',
    clause: 'sso-ticket.scope',
    level: 'observed',
    bug: `The scope claim split on /[ ,]+/ (GitHub's comma-separated scopes): a token whose scope is "read:users,${TICKET_SCOPE}" may create tickets instead of 403; "read:users;${TICKET_SCOPE}" is still refused.`,
    install: (app) => readScopesAt(app, 'sso-ticket', (scopes) => scopes.flatMap((scope) => scope.split(',')).filter(Boolean)),
  },
]);
