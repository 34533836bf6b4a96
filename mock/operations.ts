// The operations the mock serves: each operation's card (specs/cards/) and the route that acts for
// it. Keyed by the operation, so a card without its route is a compile error; everything else a
// route goes through (its path and method, the rate limit, the token check, the scope and the
// global-client rule, the checks of its path, headers and body, its success status) is read from
// the card. An in-process mock can be given more (createMockServer's `operations`), which is how a
// project test tries a throw-away operation.
import type { OperationCard } from '../specs/cards/card.ts';
import { cards } from '../specs/cards/index.ts';
import type { OperationKey } from '../specs/index.ts';
import type { Components } from './components.ts';
import type { RouteHandler } from './exchange.ts';
import { redeliverRoute } from './routes/redeliver.ts';
import { ssoTicketRoute } from './routes/sso-ticket.ts';
import { readRecordRoute } from './routes/read-record.ts';

export interface MockOperation {
  card: OperationCard;
  /** What the operation does once its request has passed the checks its card implies: act on the store, answer. */
  route: (deps: Components, card: OperationCard) => RouteHandler;
}

export const mockOperations: { [K in OperationKey]: MockOperation } = {
  redeliver: { card: cards.redeliver, route: redeliverRoute },
  'sso-ticket': { card: cards['sso-ticket'], route: ssoTicketRoute },
  vault: { card: cards.vault, route: readRecordRoute },
};

export const defaultOperations: readonly MockOperation[] = Object.values(mockOperations);
