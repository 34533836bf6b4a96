// What a verified caller may do: scopes "sanitised" of invisible format characters before they
// are compared. It grants its near miss; other tokens are judged as before.
import { cards } from '../../../../specs/cards/index.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { readScopesAt } from '../support/scope-claims.ts';

const REDELIVER_SCOPE = cards.redeliver.scope.value;
const INVISIBLE = /[\u200B-\u200D\u2060\uFEFF\u00AD]/g;

export const authorizationFaults = heldOutFamily([
  {
    id: 'ho18-scope-invisible-characters-stripped',
    clause: 'redeliver.errors.403.scope',
    level: 'contract',
    bug: `Scopes passed through an input sanitiser that deletes zero-width and soft-hyphen characters before they are compared: a token holding "${REDELIVER_SCOPE.replace('_', '_\\u200b')}" may redeliver instead of 403; a token holding update:event_\\u200bstreams is still refused.`,
    install: (app) => readScopesAt(app, 'redeliver', (scopes) => scopes.map((scope) => scope.replace(INVISIBLE, ''))),
  },
]);
