// A server that keeps connection ids in a VARCHAR column of the spec's maximum width and lets the
// database cut longer values (a non-strict SQL mode): an existing id with a character added is
// found.
import { limit } from '../../specs/index.ts';
import type { Fault } from './fault.ts';
import { truncatePathId } from './support/path-id-edits.ts';

export const accepts31CharVaultId: Fault = {
  id: 'accepts-31-char-vault-id',
  clause: 'vault.path.id.length',
  description: 'The vault read cuts an id longer than 30 characters to 30 before looking it up, so an existing id with a character added is found (and the observed 400 for a long id becomes 404).',
  install(app) {
    truncatePathId(app, 'vault', 'id', limit('vault.path.id.length').max!);
  },
};
