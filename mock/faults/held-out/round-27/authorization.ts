// Who may call: Flask-JWT's "JWT" keyword taken beside Bearer, scopes found through an
// Elasticsearch fuzzy query; and the observed rules: the scope claim percent-decoded by an API
// Gateway mapping template, the scope claim split on "+" as well as spaces by an OpenResty (Lua)
// access phase. Each changes the answer to its near miss; other requests are answered as before.
import { cards } from '../../../../specs/cards/index.ts';
import { operationKeys } from '../../../../specs/index.ts';
import { editRequests } from '../../support/route-edits.ts';
import { editPrincipal } from '../../support/verifier-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';

const OPERATION_SCOPES = operationKeys.map((key) => cards[key].scope.value);

/** Damerau-Levenshtein distance (optimal string alignment), as Elasticsearch's fuzzy queries count edits. */
function edits(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i += 1) {
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[a.length]![b.length]!;
}
const decoded = (scope: string): string => {
  try {
    return decodeURIComponent(scope);
  } catch {
    return scope;
  }
};
const widened = (covered: string[]) => (principal: { scopes: ReadonlySet<string> }) => new Set([...principal.scopes, ...covered]);

export const authorizationFaults = heldOutFamily([
  {
    id: 'ho27-jwt-keyword-flask-jwt',
    clause: 'auth.schemes',
    level: 'contract',
    bug: 'A Flask service that kept Flask-JWT\'s JWT_AUTH_HEADER_PREFIX "JWT" beside the Bearer scheme added later: "Authorization: JWT <jwt>" is accepted instead of refused 401; "Authorization: Basic ..." is still refused.',
    install: (app) => {
      for (const key of operationKeys) {
        editRequests(app, key, (exchange) => {
          const credential = exchange.headers.authorization;
          if (typeof credential !== 'string' || !/^JWT /.test(credential)) return exchange;
          return { ...exchange, headers: { ...exchange.headers, authorization: `Bearer ${credential.slice('JWT '.length)}` } };
        });
      }
    },
  },
  {
    id: 'ho27-scope-elasticsearch-fuzzy',
    clause: 'redeliver.errors.403.scope',
    level: 'contract',
    bug: 'Permissions looked up in Elasticsearch with a match query of fuzziness AUTO on the scope (meant for the admin search box): a token holding "update:event_deliverise" (two letters swapped) may redeliver instead of being refused 403; a token holding "delete:users" is still refused.',
    install: (app) =>
      editPrincipal(app, (principal) => {
        const covered = OPERATION_SCOPES.filter(
          (needed) => !principal.scopes.has(needed) && [...principal.scopes].some((held) => held !== needed && edits(held, needed) <= 2),
        );
        return covered.length === 0 ? principal : { ...principal, scopes: widened(covered)(principal) };
      }),
  },
  {
    id: 'ho27-vault-scope-apigw-urldecode',
    clause: 'vault.scope',
    level: 'observed',
    bug: 'An API Gateway mapping template that passes the claims to the backend through $util.urlDecode (copied from its query-string mapping): a token whose scope claim holds "read%3Aflows_vault_connections" may read the connection instead of being refused 403; "read%3Ausers" is still refused.',
    install: (app) =>
      editPrincipal(app, (principal) => {
        const covered = OPERATION_SCOPES.filter(
          (needed) => !principal.scopes.has(needed) && [...principal.scopes].some((held) => held !== needed && decoded(held) === needed),
        );
        return covered.length === 0 ? principal : { ...principal, scopes: widened(covered)(principal) };
      }),
  },
  {
    id: 'ho27-ticket-scope-openresty-plus-split',
    clause: 'sso-ticket.scope',
    level: 'observed',
    bug: 'An OpenResty access phase that splits the scope claim with ngx.re.split(scope, "[ +]") (a form-encoding habit): a token whose scope is "read:users+create:sso_access_tickets" (one scope by the claim\'s grammar) may create tickets instead of being refused 403; "read:users+delete:users" is still refused.',
    install: (app) =>
      editPrincipal(app, (principal) => {
        const pieces = [...principal.scopes].filter((held) => held.includes('+')).flatMap((held) => held.split('+'));
        const covered = OPERATION_SCOPES.filter((needed) => !principal.scopes.has(needed) && pieces.includes(needed));
        return covered.length === 0 ? principal : { ...principal, scopes: widened(covered)(principal) };
      }),
  },
]);
