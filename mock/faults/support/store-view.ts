// A view of the store with some lookups replaced, the rest passed through to the real store (its
// private state stays where it is).
import type { FaultHooks } from '../../app.ts';
import type { Store } from '../../store.ts';

type Lookups = Partial<Pick<Store, 'stream' | 'event' | 'profile' | 'connectionNameTaken' | 'vaultConnection' | 'client'>>;

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
