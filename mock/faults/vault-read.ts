// Where the interface is served (spec 9): the vault read under another prefix, and a router that
// serves every operation after a doubled slash. The vault read's status, content type and which
// record it answers break by the faults every card gets (operation-answers.ts); its record's fields
// are vault-record.ts's.
import type { FaultHooks } from '../app.ts';
import type { RouteHandler } from '../exchange.ts';
import { mockOperations } from '../operations.ts';
import { Refusal } from '../refusal.ts';
import { createRouter } from '../router.ts';
import { faultFamily } from './fault.ts';
import { capture, captureAll } from './support/captured.ts';
import { editReplies, replacing } from './support/route-edits.ts';

/**
 * A router that splits the path on "/" and drops the empty segments: a path the interface does not
 * serve is served as the operation it names once they are gone (whatever is not found stays so).
 */
function emptySegmentsDropped(app: FaultHooks): void {
  const components = captureAll(app);
  const operations = Object.values(mockOperations);
  const route = createRouter(operations.map((operation) => operation.card));
  let handlers: Map<string, RouteHandler> | undefined;
  app.wrapRoute('not-found', (next) => async (exchange) => {
    const path = `/${exchange.path
      .split('/')
      .filter((segment) => segment !== '')
      .join('/')}`;
    const found = path === exchange.path ? undefined : route(exchange.method, path);
    handlers ??= new Map(operations.map((operation) => [operation.card.key, operation.route(components(), operation.card)]));
    const handler = found && handlers.get(found.key);
    if (!handler) return next(exchange);
    try {
      return await handler({ ...exchange, path, params: found.params });
    } catch (error) {
      if (error instanceof Refusal) return error.reply;
      throw error;
    }
  });
}

export const vaultReadFaults = faultFamily([
  {
    id: 'vault-not-under-base-path',
    clause: 'versioning.base-path',
    bug: 'The vault read mounted under another prefix than /api/v2: every request there is answered 404 Not Found (so every vault test fails; the other operations are where the spec says).',
    install(app) {
      const errors = capture(app, 'errors');
      editReplies(app, ['vault'], (reply) => replacing(reply, errors().reply('route_not_found')));
    },
  },
  {
    id: 'empty-path-segments-dropped',
    clause: 'versioning.base-path',
    bug: 'A router that splits the path on "/" and drops empty segments: /api//v2/... (an empty segment anywhere) is served as the operation it names instead of 404.',
    install: emptySegmentsDropped,
  },
]);
