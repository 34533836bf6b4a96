// The longest vault connection id the path accepts (vault.path.id.length has no minimum, so
// closedLimit() does not apply).
import { limit } from '../../specs/index.ts';

export function vaultConnectionIdMaximum(): number {
  const { max } = limit('vault.path.id.length');
  if (max === undefined) throw new Error('specs: vault.path.id.length has no maximum');
  return max;
}
