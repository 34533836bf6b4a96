// A limiter that knows which request it is counting: a route wrapper (outside the limiter, see
// mock/app.ts) notes the exchange before the route's rate limit takes its token, and `take` sees
// it. The seventh round's limiter slips (a bucket per route, a weighted cost for writes) need it.
import type { FaultHooks } from '../../../../app.ts';
import type { Exchange, RouteKey } from '../../../../exchange.ts';
import type { Quota, RateLimiter } from '../../../../rate-limiter.ts';
import type { Components } from '../../../../components.ts';
import { MANAGEMENT_ROUTES } from '../../../support/route-edits.ts';

export interface Counted {
  key: RouteKey;
  exchange: Exchange;
}

/**
 * Replaces the management interface's limiter with `make(limiter, built)`, whose `take` gets the
 * route and exchange being answered (requests are answered one at a time in the probes; a
 * concurrent request may see another's, as the real slip would not, but only its bucket changes).
 */
export function limiterPerRequest(
  app: FaultHooks,
  make: (limiter: RateLimiter, built: Readonly<Partial<Components>>) => (counted: Counted | undefined) => Quota,
): void {
  let current: Counted | undefined;
  for (const key of MANAGEMENT_ROUTES) {
    app.wrapRoute(key, (next) => async (exchange) => {
      current = { key, exchange };
      return next(exchange);
    });
  }
  app.override('limiter', (limiter, built) => {
    const take = make(limiter, built);
    return { config: limiter.config, take: () => take(current) };
  });
}
