// A flows vault connection id of the observed shape (ac_ and base58).
import type fc from 'fast-check';
import { observed } from '../../specs/index.ts';
import { idOfShape } from './id-of-shape.ts';

export function vaultConnectionId(): fc.Arbitrary<string> {
  return idOfShape(observed.identifiers.flows_vault_connection);
}
