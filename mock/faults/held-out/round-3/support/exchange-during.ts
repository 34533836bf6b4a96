// The request a route is handling now, for a component a fault changes per request (a limiter
// keyed by the caller's credential): the route wrapper runs the request inside it, the component
// reads it. Outside those routes it is undefined.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { FaultHooks } from '../../../../app.ts';
import type { Exchange, RouteKey } from '../../../../exchange.ts';

export function exchangeDuring(app: FaultHooks, keys: readonly RouteKey[]): () => Exchange | undefined {
  const storage = new AsyncLocalStorage<Exchange>();
  for (const key of keys) app.wrapRoute(key, (next) => async (exchange) => storage.run(exchange, () => next(exchange)));
  return () => storage.getStore();
}
