// A router that serves an operation on a path it should not: a path the mock answers 404 is read
// as another (`alias`), and when that one is an operation's path the operation answers it (with
// the X-RateLimit headers of the refusal it replaces, if it had any).
import { cards } from '../../../../../specs/cards/index.ts';
import type { FaultHooks } from '../../../../app.ts';
import type { Exchange, Reply, RouteKey } from '../../../../exchange.ts';
import { mockOperations } from '../../../../operations.ts';
import { createRouter } from '../../../../router.ts';
import { handlerOf } from '../../round-2/support/handlers.ts';
import { answeredInstead } from '../../support/answers.ts';

/** `alias` gives the path the faulty router takes a not-found path for, or undefined. */
export function alsoServe(app: FaultHooks, alias: (path: string) => string | undefined): void {
  const route = createRouter(Object.values(cards));
  const serve: Partial<Record<RouteKey, (exchange: Exchange) => Promise<Reply>>> = Object.fromEntries(
    Object.values(mockOperations).map((operation) => [operation.card.key, handlerOf(app, (c) => operation.route(c, operation.card))]),
  );
  app.wrapRoute('not-found', (next) => async (exchange) => {
    const path = alias(exchange.path);
    if (path === undefined || path === exchange.path) return next(exchange);
    const found = route(exchange.method, path);
    const handler = serve[found.key];
    if (!handler) return next(exchange);
    const refused = await next(exchange);
    return answeredInstead(refused, await handler({ ...exchange, path, params: found.params }));
  });
}
