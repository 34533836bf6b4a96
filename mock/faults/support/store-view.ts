// A view of the store with some lookups replaced, the rest passed through to the real store (its
// private state stays where it is).
import type { FixtureName } from '../../../specs/cards/fixtures.ts';
import type { FaultHooks } from '../../app.ts';
import type { ServedRecord } from '../../fixtures.ts';
import type { Store } from '../../store.ts';

type Lookups = Partial<Pick<Store, 'stream' | 'event' | 'profile' | 'connectionNameTaken' | 'record' | 'client'>>;

/** The vault connections' records, the list of served records the vault read reads. */
export const VAULT_RECORDS: FixtureName = 'vaultConnectionRecords';

/** A lookup of one list of served records replaced by `find`, the other lists' passed through. */
export function recordLookup(store: Store, fixture: FixtureName, find: (id: string) => ServedRecord | undefined): Lookups {
  return { record: (which, id) => (which === fixture ? find(id) : store.record(which, id)) };
}

export function editStore(app: FaultHooks, lookups: (store: Store) => Lookups): void {
  app.override('store', (store) => {
    const replaced: Lookups = lookups(store);
    return new Proxy(store, {
      get(target, property) {
        if (Object.hasOwn(replaced, property)) return replaced[property as keyof Lookups];
        const value: unknown = Reflect.get(target, property);
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
    });
  });
}
