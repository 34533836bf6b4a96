// A component as the routes see it, for a fault's route wrapper to use (say, the store to look an
// id up, or the issuer to mint a token). Capturing is an override that changes nothing.
import type { FaultHooks } from '../../app.ts';
import type { ComponentName, Components } from '../../components.ts';

export function capture<K extends ComponentName>(app: FaultHooks, name: K): () => Components[K] {
  let value: Components[K] | undefined;
  app.override(name, (current) => {
    value = current;
    return current;
  });
  return () => {
    if (value === undefined) throw new Error(`component ${name} is not built yet`);
    return value;
  };
}

/** Every component, once all are built (capturing the last one built sees the rest). */
export function captureAll(app: FaultHooks): () => Components {
  let all: Components | undefined;
  app.override('limits', (current, built) => {
    all = { ...built, limits: current } as Components;
    return current;
  });
  return () => {
    if (all === undefined) throw new Error('the components are not built yet');
    return all;
  };
}
