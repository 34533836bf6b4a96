// The operation cards, one per operation of specs/openapi.yaml, keyed by the operation: a key
// without its card, or a card without its key, is a compile error. Everything per operation in the
// project (the mock's routes, the roles, the target files' fields, the suites' tables, the matrix)
// is derived from here; see card.ts.
import type { OperationKey } from '../openapi.ts';
import type { OperationCard } from './card.ts';
import { redeliverCard } from './redeliver.ts';
import { ssoTicketCard } from './sso-ticket.ts';
import { vaultCard } from './vault.ts';

export const cards = {
  redeliver: redeliverCard,
  'sso-ticket': ssoTicketCard,
  vault: vaultCard,
} as const satisfies { [K in OperationKey]: OperationCard<K> };

export type Cards = typeof cards;

/** The card of an operation. */
export function card(key: OperationKey): OperationCard {
  return cards[key];
}

/**
 * The roles the suites use, each one client of the target: the global client; one without each
 * operation's scope; a client that is not global; and two that hold, for every operation, a near
 * miss of its scope and none of the operations' own (another action on its resource, its action
 * on another resource), so a real tenant can be sent the scope near misses a signing key makes.
 */
export type RoleName = 'global' | 'non_global' | 'other_action' | 'other_resource' | Cards[OperationKey]['roleWithoutScope'];

export const roleNames: readonly RoleName[] = [
  'global',
  ...Object.values(cards).map((c) => c.roleWithoutScope),
  'non_global',
  'other_action',
  'other_resource',
];
