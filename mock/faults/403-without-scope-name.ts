// A 403 that keeps the service's wording but loses the list of scopes: "Insufficient scope,
// expected any of: " followed by nothing.
import type { Fault } from './fault.ts';
import { editErrors } from './support/error-edits.ts';

export const forbiddenWithoutScopeName: Fault = {
  id: '403-without-scope-name',
  clause: 'errors.403.scope-named',
  description: 'A 403 for a missing scope does not name the scope needed ("Insufficient scope, expected any of: " and nothing after).',
  install(app) {
    editErrors(app, (kind, reply, errors) => (kind === 'insufficient_scope' ? errors.reply('insufficient_scope') : reply));
  },
};
