// The operation cards, one per operation of specs/openapi.yaml, keyed by the operation: a key
// without its card, or a card without its key, is a compile error. Everything per operation in the
// project (the mock's routes, the roles, the target files' fields, the suites' tables, the matrix)
// is derived from here; see card.ts.
import type { OperationKey } from '../openapi.ts';
import { scopeCatalogue } from '../scopes.ts';
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

/**
 * The scopes of a role's client, from the cards: every operation's for the global client and the
 * one that is not global; every operation's but one for each role without a scope; each
 * operation's near miss for the two near-miss roles. The mock's fixtures give their clients a role
 * instead of a list, so an operation added here reaches every client.
 */
export function scopesOfRole(role: RoleName): string[] {
  const all = Object.values(cards);
  switch (role) {
    case 'global':
    case 'non_global':
      return all.map((c) => c.scope.value);
    case 'other_action':
      return all.map((c) => otherActionOf(c.scope.value));
    case 'other_resource':
      return all.map((c) => c.scope.otherResource);
    default:
      return all.filter((c) => c.roleWithoutScope !== role).map((c) => c.scope.value);
  }
}

/**
 * What a role's client is on the target, for the people who fill in a target file (the example
 * target file shows it), from the cards; `optional` where a run without it is still whole.
 */
export function roleAbout(role: RoleName): { about: string; optional?: true } {
  const scopes = (of: RoleName) => scopesOfRole(of).join(' ');
  switch (role) {
    case 'global':
      return { about: `the global client, holding the operations' scopes: ${scopes('global')}` };
    case 'non_global':
      return { about: "a client that is not global, holding the operations' scopes" };
    case 'other_action':
      return {
        about: `a global client holding, for each operation, another action on its resource and none of the operations' own scopes: ${scopes(role)} (403 near misses a real tenant can be sent)`,
        optional: true,
      };
    case 'other_resource':
      return {
        about: `a global client holding, for each operation, its action on another resource and none of the operations' own scopes: ${scopes(role)}`,
        optional: true,
      };
    default: {
      const without = Object.values(cards).find((c) => c.roleWithoutScope === role)!;
      return { about: `a global client holding every scope of the operations but ${without.scope.value} (the 403 of ${without.name})` };
    }
  }
}

/** The scope's resource with the first other action the catalogue has for it. */
export function otherActionOf(scope: string): string {
  const resource = scope.slice(scope.indexOf(':') + 1);
  const other = scopeCatalogue.find((candidate) => candidate !== scope && candidate.endsWith(`:${resource}`));
  if (!other) throw new Error(`the scope catalogue has no other action for ${resource}`);
  return other;
}
