// How a request reaches an operation: the vault id's pattern written with a quantifier one too
// long; and the observed rule: a method-override middleware that reads the method from the query
// string. Each changes the answer to one near miss; requests without it are answered as before.
import { cards } from '../../../../specs/cards/index.ts';
import { observed } from '../../../../specs/index.ts';
import type { Exchange, Reply, RouteKey } from '../../../exchange.ts';
import { mockOperations } from '../../../operations.ts';
import { createRouter } from '../../../router.ts';
import { capture } from '../../support/captured.ts';
import { editReplies, isErrorBody } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { handlerOf } from '../round-2/support/handlers.ts';
import { answeredInstead } from '../support/answers.ts';

const BASE58 = observed.identifiers.base58_alphabet;
const VAULT_PREFIX = observed.identifiers.flows_vault_connection.prefix;
/** The vault id's pattern with {22,28} where {22,27} is due: 31 characters pass. */
const VAULT_ID_ONE_LONGER = new RegExp(`^${VAULT_PREFIX}[${BASE58}]{22,28}$`);
/** The query parameter a method-override middleware reads (method-override's getter "_method"). */
const OVERRIDE_PARAMETER = '_method';

export const requestFaults = heldOutFamily([
  {
    id: 'ho13-vault-id-quantifier-off-by-one',
    clause: 'vault.path.id.length',
    level: 'contract',
    bug: `The vault id's route pattern written ^${VAULT_PREFIX}[base58]{22,28}$, the quantifier's upper bound counted as the id's length less the prefix plus one: a well-formed id of 31 characters passes the path check and is answered 404 "Connection not found" instead of 400; an id of 32 characters is still refused 400.`,
    install: (app) => {
      const errors = capture(app, 'errors');
      editReplies(app, ['vault'], (reply, exchange) => {
        const id = exchange.params.id;
        return reply.status === 400 &&
          isErrorBody(reply.body) &&
          reply.body.errorCode === 'invalid_uri' &&
          id !== undefined &&
          id.length === 31 &&
          VAULT_ID_ONE_LONGER.test(id)
          ? answeredInstead(reply, errors().reply('vault_connection_not_found'))
          : reply;
      });
    },
  },
  {
    id: 'ho13-method-from-query',
    clause: 'routes.method',
    level: 'observed',
    bug: `A method-override middleware mounted for HTML forms, with its getter set to the query parameter ${OVERRIDE_PARAMETER} (method-override("${OVERRIDE_PARAMETER}")) and no restriction to POST: a GET of the ticket path with ?${OVERRIDE_PARAMETER}=POST creates a ticket (201) instead of being refused; a GET without the parameter is still refused 405.`,
    install: (app) => {
      const route = createRouter(Object.values(cards));
      const serve: Partial<Record<RouteKey, (exchange: Exchange) => Promise<Reply>>> = Object.fromEntries(
        Object.values(mockOperations).map((operation) => [operation.card.key, handlerOf(app, (c) => operation.route(c, operation.card))]),
      );
      app.wrapRoute('method-not-allowed', (next) => async (exchange) => {
        const method = new URLSearchParams(exchange.query).get(OVERRIDE_PARAMETER)?.toUpperCase();
        if (method === undefined) return next(exchange);
        const found = route(method, exchange.path);
        const handler = serve[found.key];
        const refused = await next(exchange);
        return handler ? answeredInstead(refused, await handler({ ...exchange, method, params: found.params })) : refused;
      });
    },
  },
]);
