// A valid enabled_clients array: distinct client ids, realistic or drawn from the given ones.
import fc from 'fast-check';
import { clientId } from '../identifiers/client-id.ts';
import { idFrom } from './id-from.ts';

export interface EnabledClientsConstraints {
  /** Ids to draw from. Default: realistic client ids. */
  clientIds?: readonly string[];
  minLength?: number;
  maxLength?: number;
}

export function enabledClients(constraints: EnabledClientsConstraints = {}): fc.Arbitrary<string[]> {
  const { minLength = 0, maxLength = 3, clientIds } = constraints;
  const id = idFrom(clientIds, clientId);
  if (!id) throw new RangeError('enabledClients needs at least one client id to draw from');
  return fc.uniqueArray(id, { minLength, maxLength: Math.min(maxLength, clientIds?.length ?? maxLength) });
}
