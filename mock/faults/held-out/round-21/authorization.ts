// What a verified caller may do: a scope claim split the way Perl's split(' ') splits (on any
// whitespace), a scope written as a GraphQL enum name; and the observed rules: held scopes taken as
// shell globs (fnmatch), and a vault scope cleaned of invisible format characters. Each grants its
// near miss; other tokens are judged as before.
import { cards } from '../../../../specs/cards/index.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { readScopesAt } from '../support/scope-claims.ts';

const REDELIVER_SCOPE = cards.redeliver.scope.value;
const TICKET_SCOPE = cards['sso-ticket'].scope.value;
/** fnmatch: * for any run of characters, ? for one, the rest literal. */
const globMatches = (pattern: string, text: string) =>
  new RegExp(
    `^${pattern
      .replace(/[.+^${}()|[\]\\]/g, '\\$&')
      .replace(/\*/g, '.*')
      .replace(/\?/g, '.')}$`,
  ).test(text);

export const authorizationFaults = heldOutFamily([
  {
    id: 'ho21-scope-perl-awk-split',
    clause: 'redeliver.scope',
    level: 'contract',
    bug: `The scope claim split with Perl's split(' ', $scope), which splits on any run of whitespace: a token whose scope is "read:event_streams\\t${REDELIVER_SCOPE}" (a tab, not a space: one scope) may redeliver instead of 403; "read:event_streams\\tupdate:event_streams" is still refused.`,
    install: (app) => readScopesAt(app, 'redeliver', (scopes) => scopes.flatMap((scope) => scope.split(/\s+/).filter((s) => s !== ''))),
  },
  {
    id: 'ho21-scope-graphql-enum-name',
    clause: 'redeliver.errors.403.scope',
    level: 'contract',
    bug: `Scopes kept as GraphQL enum values by a gateway in front of the API, whose names cannot hold ":" and were written with "_", and mapped back by replacing the first "_": a token holding "${REDELIVER_SCOPE.replace(':', '_')}" may redeliver instead of 403; "update_event_streams" is still refused.`,
    install: (app) =>
      readScopesAt(app, 'redeliver', (scopes) => scopes.map((scope) => (scope.includes(':') ? scope : scope.replace('_', ':')))),
  },
  {
    id: 'ho21-ticket-scope-fnmatch',
    clause: 'sso-ticket.scope',
    level: 'observed',
    bug: `Held scopes matched against the required one with Python's fnmatch, as if they were patterns: a token holding "create:sso_*" may create a ticket instead of 403; "read:sso_*" is still refused.`,
    install: (app) =>
      readScopesAt(app, 'sso-ticket', (scopes) =>
        scopes.some((scope) => scope.includes('*') && globMatches(scope, TICKET_SCOPE)) ? [...scopes, TICKET_SCOPE] : [...scopes],
      ),
  },
  {
    id: 'ho21-vault-scope-format-chars-stripped',
    clause: 'vault.scope',
    level: 'observed',
    bug: 'Scopes passed through an input sanitiser that removes Unicode format characters (\\p{Cf}: zero-width spaces, joiners, BOMs) before comparison: a token holding "\\u200Bread:flows_vault_connections" may read the vault connection instead of 403; "\\u200Bread:flows_vault_connection" is still refused.',
    install: (app) => readScopesAt(app, 'vault', (scopes) => scopes.map((scope) => scope.replace(/\p{Cf}/gu, ''))),
  },
]);
