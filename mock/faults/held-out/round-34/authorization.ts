// Authorization: an AppSync schema guarded with @aws_auth(cognito_groups: [...]), whose check reads
// the cognito:groups claim beside the scopes, and a Supabase row-level-security policy matching the
// scope claim with LIKE '%...%'. Other tokens are judged as before.
import { cards } from '../../../../specs/cards/index.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { readScopesAt } from '../support/scope-claims.ts';

const REDELIVER_SCOPE = cards.redeliver.scope.value;
const VAULT_SCOPE = cards.vault.scope.value;

export const authorizationFaults = heldOutFamily([
  {
    id: 'ho34-redeliver-appsync-cognito-groups',
    clause: 'redeliver.scope',
    level: 'contract',
    bug: `An AWS AppSync API whose redelivery mutation is guarded with @aws_auth(cognito_groups: ["${REDELIVER_SCOPE}"]) beside the scope check, so a token's cognito:groups claim grants what its scopes do not: a correctly signed token without ${REDELIVER_SCOPE} in scope but with "cognito:groups": ["${REDELIVER_SCOPE}"] is let redeliver (202) instead of 403; the same list under "groups" is still refused.`,
    install: (app) =>
      readScopesAt(app, 'redeliver', (scopes, claims) => {
        const groups = claims['cognito:groups'];
        return Array.isArray(groups) && groups.includes(REDELIVER_SCOPE) && !scopes.includes(REDELIVER_SCOPE)
          ? [...scopes, REDELIVER_SCOPE]
          : [...scopes];
      }),
  },
  {
    id: 'ho34-vault-scope-supabase-like',
    clause: 'vault.scope',
    level: 'observed',
    bug: `A Supabase row-level-security policy on the vault connections, using (auth.jwt() ->> 'scope' like '%${VAULT_SCOPE}%'), which matches the scope inside a longer one: a token whose only scope is "${VAULT_SCOPE}_all" is let read (200) instead of 403; a token whose only scope is "read:flows_vault" is still refused.`,
    install: (app) =>
      readScopesAt(app, 'vault', (scopes) =>
        !scopes.includes(VAULT_SCOPE) && scopes.some((s) => s.includes(VAULT_SCOPE)) ? [...scopes, VAULT_SCOPE] : [...scopes],
      ),
  },
]);
