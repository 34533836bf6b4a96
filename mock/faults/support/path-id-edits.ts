// Faults in how a path id finds its resource: a server that keeps ids in a fixed-width column cuts
// a longer id to the width (so an existing id with characters added is found), and one that looks
// ids up by prefix finds an existing id from its first characters. Both act before the route, on
// the id as sent.
import { observed } from '../../../specs/index.ts';
import type { FaultHooks } from '../../app.ts';
import type { RouteKey } from '../../exchange.ts';
import type { Store } from '../../store.ts';
import { capture } from './captured.ts';
import { editRequests } from './route-edits.ts';

/** Every character an identifier of the service uses (base58 is a subset). */
const ID_CHARACTERS = observed.identifiers.alphanumeric_alphabet;

/** Cuts the path parameter `name` to `width` characters. */
export function truncatePathId(app: FaultHooks, key: RouteKey, name: string, width: number): void {
  editRequests(app, key, (exchange) => {
    const value = exchange.params[name];
    if (value === undefined || value.length <= width) return exchange;
    return { ...exchange, params: { ...exchange.params, [name]: value.slice(0, width) } };
  });
}

/**
 * Replaces a path parameter one character short of `width` with the one existing id it is a
 * prefix of, as a `LIKE 'id%'` lookup finds it. The store lists no ids, so the lookup tries each
 * character of the identifier alphabet in the missing place; `exists` asks the store about one.
 */
export function resolvePathIdByPrefix(app: FaultHooks, key: RouteKey, name: string, width: number, exists: (store: Store, id: string, params: Record<string, string>) => boolean): void {
  const store = capture(app, 'store');
  editRequests(app, key, (exchange) => {
    const value = exchange.params[name];
    if (value === undefined || value.length !== width - 1) return exchange;
    const matches = [...ID_CHARACTERS].map((c) => value + c).filter((id) => exists(store(), id, exchange.params));
    if (matches.length !== 1) return exchange;
    return { ...exchange, params: { ...exchange.params, [name]: matches[0]! } };
  });
}
