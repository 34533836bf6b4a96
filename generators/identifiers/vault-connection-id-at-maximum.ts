// A flows vault connection id of exactly the maximum length of vault.path.id.length: the longest
// id a target must accept, in the real prefix and alphabet.
import type fc from 'fast-check';
import { vaultConnectionIdMaximum } from './vault-connection-id-maximum.ts';
import { vaultConnectionIdOfLength } from './vault-connection-id-of-length.ts';

export function vaultConnectionIdAtMaximum(): fc.Arbitrary<string> {
  return vaultConnectionIdOfLength(vaultConnectionIdMaximum());
}
