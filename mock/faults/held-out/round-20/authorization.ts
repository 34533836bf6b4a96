// What a verified caller may do: scopes folded to ASCII (accents stripped) and a scope claim read as
// a PostgreSQL array literal; and the observed rules: a ticket scope qualified with the API's
// identifier (the Azure AD form), and a vault scope carrying Spring Security's SCOPE_ authority
// prefix. Each grants its near miss; other tokens are judged as before.
import { cards } from '../../../../specs/cards/index.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { readScopesAt } from '../support/scope-claims.ts';

const REDELIVER_SCOPE = cards.redeliver.scope.value;
const audiencesOf = (aud: unknown): string[] =>
  typeof aud === 'string' ? [aud] : Array.isArray(aud) ? aud.filter((a): a is string => typeof a === 'string') : [];

export const authorizationFaults = heldOutFamily([
  {
    id: 'ho20-scope-accents-folded',
    clause: 'redeliver.scope',
    level: 'contract',
    bug: `Scopes compared after an ASCII-folding filter (NFD, then the combining marks dropped, as Elasticsearch's asciifolding does): a token holding "${REDELIVER_SCOPE.replace(/e/g, 'é')}" may redeliver instead of 403; a token holding "update:event_dlivries" is still refused.`,
    install: (app) => readScopesAt(app, 'redeliver', (scopes) => scopes.map((scope) => scope.normalize('NFD').replace(/\p{M}/gu, ''))),
  },
  {
    id: 'ho20-scope-postgres-array-literal',
    clause: 'redeliver.errors.403.scope',
    level: 'contract',
    bug: `The scope claim stored in a text[] column and read back as the array literal's items: a token whose scope is "{${REDELIVER_SCOPE}}" may redeliver instead of 403; "{update:event_streams}" is still refused.`,
    install: (app) =>
      readScopesAt(app, 'redeliver', (scopes) =>
        scopes.flatMap((scope) => (/^\{.*\}$/.test(scope) ? scope.slice(1, -1).split(',') : [scope])),
      ),
  },
  {
    id: 'ho20-ticket-scope-resource-qualified',
    clause: 'sso-ticket.scope',
    level: 'observed',
    bug: 'Scopes read the way Azure AD writes them, the API\'s identifier before the permission, with the token\'s audience cut from the front: a token holding "<audience>create:sso_access_tickets" may create a ticket instead of 403; "https://other.example/create:sso_access_tickets" is still refused.',
    install: (app) =>
      readScopesAt(app, 'sso-ticket', (scopes, claims) =>
        scopes.map((scope) => {
          const audience = audiencesOf(claims.aud).find((aud) => scope.startsWith(aud) && scope.length > aud.length);
          return audience === undefined ? scope : scope.slice(audience.length);
        }),
      ),
  },
  {
    id: 'ho20-vault-scope-spring-authority',
    clause: 'vault.scope',
    level: 'observed',
    bug: 'Scopes compared as Spring Security authorities with the SCOPE_ prefix stripped from both sides: a token holding "SCOPE_read:flows_vault_connections" may read the vault connection instead of 403; "ROLE_read:flows_vault_connections" is still refused.',
    install: (app) => readScopesAt(app, 'vault', (scopes) => scopes.map((scope) => scope.replace(/^SCOPE_/, ''))),
  },
]);
