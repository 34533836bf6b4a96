// What a verified caller may do: scopes normalised before they are compared (hyphens folded into
// underscores, quotes stripped), and the observed rules: a trailing punctuation mark dropped from the
// vault scope, a camel-cased resource taken for the ticket scope. Each grants its near miss; other
// tokens are judged as before.
import { cards } from '../../../../specs/cards/index.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { readScopesAt } from '../support/scope-claims.ts';

const REDELIVER_SCOPE = cards.redeliver.scope.value;
const snakeOf = (name: string) => name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

export const authorizationFaults = heldOutFamily([
  {
    id: 'ho19-scope-hyphen-folded',
    clause: 'redeliver.errors.403.scope',
    level: 'contract',
    bug: `Scopes passed through a slug normaliser (replace(/-/g, "_")) before they are compared: a token holding "${REDELIVER_SCOPE.replace(/_/g, '-')}" may redeliver instead of 403; a token holding update:event-streams is still refused.`,
    install: (app) => readScopesAt(app, 'redeliver', (scopes) => scopes.map((scope) => scope.replace(/-/g, '_'))),
  },
  {
    id: 'ho19-scope-quotes-stripped',
    clause: 'redeliver.scope',
    level: 'contract',
    bug: `Each scope stripped of surrounding quotes (a CSV reader's unquoting, for claims written from a list): a token holding "\\"${REDELIVER_SCOPE}\\"" may redeliver instead of 403; a token holding "\\"update:event_streams\\"" is still refused.`,
    install: (app) => readScopesAt(app, 'redeliver', (scopes) => scopes.map((scope) => scope.replace(/^"(.*)"$/, '$1'))),
  },
  {
    id: 'ho19-vault-scope-trailing-punctuation',
    clause: 'vault.scope',
    level: 'observed',
    bug: 'Scopes tokenised by a word tokenizer that drops sentence punctuation at a token\'s end: a token holding "read:flows_vault_connections." may read the vault connection instead of 403; "read:flows_vault." is still refused.',
    install: (app) => readScopesAt(app, 'vault', (scopes) => scopes.map((scope) => scope.replace(/[.,;!]+$/, ''))),
  },
  {
    id: 'ho19-ticket-scope-camel-case-folded',
    clause: 'sso-ticket.scope',
    level: 'observed',
    bug: 'Scope resources bound through a relaxed naming strategy (camelCase read as snake_case, as Jackson\'s SNAKE_CASE does): a token holding "create:ssoAccessTickets" may create a ticket instead of 403; "create:ssoTickets" is still refused.',
    install: (app) => readScopesAt(app, 'sso-ticket', (scopes) => scopes.map(snakeOf)),
  },
]);
