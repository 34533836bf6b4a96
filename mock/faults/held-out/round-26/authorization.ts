// Who may call: the "Token" keyword of Django REST framework's TokenAuthentication taken as well as
// Bearer, Microsoft.Identity.Web's scp claim read where scope is absent; and the observed rules:
// scopes compared after a Rails inflector singularises them, and scopes kept in a PostgreSQL citext
// column (compared without case). Each changes the answer to its near miss; other requests are
// answered as before.
import { cards } from '../../../../specs/cards/index.ts';
import { operationKeys } from '../../../../specs/index.ts';
import { editRequests } from '../../support/route-edits.ts';
import { editPrincipal } from '../../support/verifier-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';

const OPERATION_SCOPES = operationKeys.map((key) => cards[key].scope.value);
const VAULT_SCOPE = cards.vault.scope.value;
const TICKET_SCOPE = cards['sso-ticket'].scope.value;
/** What ActiveSupport's singularize does to a scope's last word here: one trailing "s" dropped. */
const singular = (scope: string) => scope.replace(/s$/, '');

export const authorizationFaults = heldOutFamily([
  {
    id: 'ho26-token-keyword-drf',
    clause: 'auth.schemes',
    level: 'contract',
    bug: 'A Django REST framework service whose authentication classes are a subclass of TokenAuthentication with keyword = "Bearer" put beside the stock TokenAuthentication (keyword "Token"), both handing the credential to the JWT check: "Authorization: Token <a valid token>" is served (a read answers the record) instead of 401 for a scheme other than Bearer; "Basic <base64>" is still refused.',
    install: (app) => {
      for (const key of operationKeys) {
        editRequests(app, key, (exchange) => {
          const credential = exchange.headers.authorization;
          if (typeof credential !== 'string' || !/^Token /.test(credential)) return exchange;
          return { ...exchange, headers: { ...exchange.headers, authorization: `Bearer ${credential.slice('Token '.length)}` } };
        });
      }
    },
  },
  {
    id: 'ho26-scp-claim-identity-web',
    clause: 'redeliver.errors.403.scope',
    level: 'contract',
    bug: 'An ASP.NET Core service whose scope policy follows Microsoft.Identity.Web, reading the scp claim (Azure AD\'s name for it) and the scope claim only where scp is absent, or the other way round: a token signed with the tenant key holding read:flows_vault_connections in scope and update:event_deliveries in scp redelivers (202) instead of 403; scp "delete:users" is still refused.',
    install: (app) =>
      editPrincipal(app, (principal) => {
        const scp = principal.claims.scp;
        const listed = typeof scp === 'string' ? scp.split(' ') : Array.isArray(scp) ? scp : [];
        const extra = listed.filter((value): value is string => typeof value === 'string' && value !== '');
        return extra.length === 0 ? principal : { ...principal, scopes: new Set([...principal.scopes, ...extra]) };
      }),
  },
  {
    id: 'ho26-scope-rails-singularize',
    clause: 'vault.scope',
    level: 'observed',
    bug: `A Rails service whose scope check compares required.singularize with each held scope's singularize (the resource names of its routes are plural, its policies' singular): a token signed with the tenant key holding only "${singular(VAULT_SCOPE)}" reads a vault connection (200) instead of 403; "read:flows_vault" is still refused.`,
    install: (app) =>
      editPrincipal(app, (principal) => {
        const covered = OPERATION_SCOPES.filter(
          (needed) => !principal.scopes.has(needed) && [...principal.scopes].some((held) => singular(held) === singular(needed)),
        );
        return covered.length === 0 ? principal : { ...principal, scopes: new Set([...principal.scopes, ...covered]) };
      }),
  },
  {
    id: 'ho26-scope-postgres-citext',
    clause: 'sso-ticket.scope',
    level: 'observed',
    bug: `Granted scopes joined in SQL against a PostgreSQL table whose name column is citext (made so for the admin screen's search), so a held scope matches a required one whatever its case: a token signed with the tenant key holding "${TICKET_SCOPE.toUpperCase()}" creates a ticket (201) instead of 403; "create:sso_access" is still refused.`,
    install: (app) =>
      editPrincipal(app, (principal) => {
        const covered = OPERATION_SCOPES.filter(
          (needed) => !principal.scopes.has(needed) && [...principal.scopes].some((held) => held.toLowerCase() === needed.toLowerCase()),
        );
        return covered.length === 0 ? principal : { ...principal, scopes: new Set([...principal.scopes, ...covered]) };
      }),
  },
]);
