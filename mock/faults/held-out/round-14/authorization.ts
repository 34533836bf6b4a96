// What a verified caller may do: the scope claim split on "+" as well as spaces, and a held scope
// whose action ranks above the needed one on a role ladder (delete > create > update > read) taken
// to grant it; and the observed rules: the vault read granted to any scope on its resource, and
// ticket creation granted to a caller that may create connections. Each grants its near miss;
// other tokens are judged as before.
import { cards } from '../../../../specs/cards/index.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { readScopesAt } from '../support/scope-claims.ts';

const REDELIVER_SCOPE = cards.redeliver.scope.value;
const TICKET_SCOPE = cards['sso-ticket'].scope.value;
const VAULT_SCOPE = cards.vault.scope.value;
const LADDER = ['read', 'update', 'create', 'delete'];
const CONNECTIONS_SCOPE = 'create:connections';

const split = (scope: string) => {
  const at = scope.indexOf(':');
  return at < 0 ? undefined : { action: scope.slice(0, at), resource: scope.slice(at + 1) };
};

export const authorizationFaults = heldOutFamily([
  {
    id: 'ho14-scope-action-ladder',
    clause: 'redeliver.scope',
    level: 'contract',
    bug: `Actions ranked on a role ladder (${LADDER.join(' < ')}) as the admin console's roles are, a held scope granting every lower action on its resource: a token holding "delete:event_deliveries" (or "create:...") may redeliver instead of 403; "delete:event_streams" is still refused.`,
    install: (app) =>
      readScopesAt(app, 'redeliver', (scopes) => {
        const needed = split(REDELIVER_SCOPE)!;
        const granted = scopes.some((scope) => {
          const held = split(scope);
          return held !== undefined && held.resource === needed.resource && LADDER.indexOf(held.action) > LADDER.indexOf(needed.action);
        });
        return granted && !scopes.includes(REDELIVER_SCOPE) ? [...scopes, REDELIVER_SCOPE] : [...scopes];
      }),
  },
  {
    id: 'ho14-vault-any-action-reads',
    clause: 'vault.scope',
    level: 'observed',
    bug: `The vault read guarded by a check on the resource alone (scope.endsWith(":${split(VAULT_SCOPE)!.resource}")), written on the idea that whoever may change connections may see them: a token holding "update:${split(VAULT_SCOPE)!.resource}" (or "delete:") reads a record instead of 403; "update:flows" is still refused.`,
    install: (app) =>
      readScopesAt(app, 'vault', (scopes) =>
        !scopes.includes(VAULT_SCOPE) && scopes.some((scope) => scope.endsWith(`:${split(VAULT_SCOPE)!.resource}`))
          ? [...scopes, VAULT_SCOPE]
          : [...scopes],
      ),
  },
  {
    id: 'ho14-ticket-scope-from-connections',
    clause: 'sso-ticket.scope',
    level: 'observed',
    bug: `Ticket creation also granted to ${CONNECTIONS_SCOPE}, on the reasoning that a ticket only lets someone else create a connection: a token holding "${CONNECTIONS_SCOPE}" but not "${TICKET_SCOPE}" gets a ticket instead of 403; "read:connections" is still refused.`,
    install: (app) =>
      readScopesAt(app, 'sso-ticket', (scopes) =>
        scopes.includes(CONNECTIONS_SCOPE) && !scopes.includes(TICKET_SCOPE) ? [...scopes, TICKET_SCOPE] : [...scopes],
      ),
  },
  {
    id: 'ho14-scope-plus-separated',
    clause: 'redeliver.errors.403.scope',
    level: 'contract',
    bug: `The scope claim split on /[ +]/, so that scope strings copied out of a form-encoded token request ("+" for a space) work too: a token whose scope is "read:event_streams+${REDELIVER_SCOPE}" (one scope, by the claim's rule) may redeliver instead of 403; "read:event_streams+update:event_streams" is still refused.`,
    install: (app) =>
      readScopesAt(app, 'redeliver', (scopes, claims) =>
        typeof claims.scope === 'string' && claims.scope.includes('+')
          ? claims.scope.split(/[ +]/).filter((scope) => scope.length > 0)
          : [...scopes],
      ),
  },
]);
