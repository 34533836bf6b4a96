// Running a route's own handler from inside a fault's wrapper, as a router that sends a request
// somewhere it should not would: the handler is built once from the components as the routes see
// them, and a refusal it throws becomes its reply (as app.ts does for the routes it assembles).
import type { FaultHooks } from '../../../../app.ts';
import type { Components } from '../../../../components.ts';
import type { Exchange, Reply, RouteHandler } from '../../../../exchange.ts';
import { Refusal } from '../../../../refusal.ts';
import { captureAll } from '../../../support/captured.ts';

/** A handler made by `make` once the components are built; call it with an exchange. */
export function handlerOf(app: FaultHooks, make: (components: Components) => RouteHandler): (exchange: Exchange) => Promise<Reply> {
  const components = captureAll(app);
  let handler: RouteHandler | undefined;
  return async (exchange) => {
    handler ??= make(components());
    try {
      return await handler(exchange);
    } catch (error) {
      if (error instanceof Refusal) return error.reply;
      throw error;
    }
  };
}
