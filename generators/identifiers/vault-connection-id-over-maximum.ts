// A flows vault connection id one character over the maximum of vault.path.id.length, in the real
// prefix and alphabet, so only a length check refuses it.
import type fc from 'fast-check';
import { vaultConnectionIdMaximum } from './vault-connection-id-maximum.ts';
import { vaultConnectionIdOfLength } from './vault-connection-id-of-length.ts';

export function vaultConnectionIdOverMaximum(): fc.Arbitrary<string> {
  return vaultConnectionIdOfLength(vaultConnectionIdMaximum() + 1);
}
