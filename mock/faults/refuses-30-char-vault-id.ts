// A validator written from the ids seen in practice (25 characters) instead of the spec's maximum
// of 30: a longer id the spec allows is refused.
import { observed, parameter, toJsonSchema } from '../../specs/index.ts';
import type { Fault } from './fault.ts';
import { compileCheck, replaceParameterCheck } from './support/check-edits.ts';

const SEEN_LENGTH = observed.identifiers.flows_vault_connection.length;

export const refuses30CharVaultId: Fault = {
  id: 'refuses-30-char-vault-id',
  clause: 'vault.path.id.length',
  description: 'The vault read refuses ids longer than the 25 characters seen in practice, so an existing 30-character id (within the spec\'s maximum) is answered 400; every read of it fails.',
  install(app) {
    const check = compileCheck({ ...toJsonSchema(parameter('vault', 'path', 'id').schema, 'observed'), maxLength: SEEN_LENGTH });
    replaceParameterCheck(app, 'vault', 'path', 'id', () => check);
  },
};
