// Authorization: a Laravel service on Passport, whose tokenCan() grants everything to a token
// holding "*"; and the observed rule: a Django REST framework view guarded with
// django-oauth-toolkit's TokenHasReadWriteScope, which lets a safe method through on the scope
// "read". Other tokens are judged as before.
import { cards } from '../../../../specs/cards/index.ts';
import { operationKeys } from '../../../../specs/index.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { readScopesAt } from '../support/scope-claims.ts';

const VAULT_SCOPE = cards.vault.scope.value;
/** django-oauth-toolkit's READ_SCOPE setting, its default. */
const DOT_READ_SCOPE = 'read';

export const authorizationFaults = heldOutFamily([
  {
    id: 'ho36-passport-token-can-star',
    clause: 'redeliver.scope',
    level: 'contract',
    bug: `A Laravel service on Passport whose routes check $request->user()->tokenCan($scope), and Passport's Token::can() answers true for any scope when the token's scopes hold "*" (the scope personal access tokens are given): a correctly signed token whose only scope is "*" may redeliver (202) instead of 403 (and read the vault and create tickets); a token whose only scope is "update:*" is still refused.`,
    install: (app) => {
      for (const key of operationKeys)
        readScopesAt(app, key, (scopes) => {
          const required = cards[key].scope.value;
          return scopes.includes('*') && !scopes.includes(required) ? [...scopes, required] : [...scopes];
        });
    },
  },
  {
    id: 'ho36-vault-dot-read-write-scope',
    clause: 'vault.scope',
    level: 'observed',
    bug: `A Django REST framework view for the vault read whose permission_classes hold django-oauth-toolkit's TokenHasReadWriteScope beside the view's own scope check (an or of the two), and that class lets a GET through on the scope "${DOT_READ_SCOPE}": a token whose only scope is "${DOT_READ_SCOPE}" reads the connection (200) instead of 403; a token whose only scope is "write" is still refused.`,
    install: (app) =>
      readScopesAt(app, 'vault', (scopes) =>
        scopes.includes(DOT_READ_SCOPE) && !scopes.includes(VAULT_SCOPE) ? [...scopes, VAULT_SCOPE] : [...scopes],
      ),
  },
]);
