// A flag that holds while one route handles a request, for a component a fault changes only there
// (a limiter that does not refuse writes, a header check skipped for one kind of body): the route
// wrapper runs the request inside it, the component reads it.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { FaultHooks } from '../../../../app.ts';
import type { Exchange, RouteKey } from '../../../../exchange.ts';

export interface During {
  /** Whether the request being handled now is one the flag was raised for. */
  (): boolean;
}

/** Raises the flag for the requests of these routes that `when` picks (all of them by default). */
export function duringRoutes(app: FaultHooks, keys: readonly RouteKey[], when: (exchange: Exchange) => boolean = () => true): During {
  const storage = new AsyncLocalStorage<boolean>();
  for (const key of keys) {
    app.wrapRoute(key, (next) => async (exchange) => storage.run(when(exchange), () => next(exchange)));
  }
  return () => storage.getStore() === true;
}
