// POST /api/v2/event-streams/{id}/redeliver/{event_id} (spec 4.1): redeliver one failed event.
// 202 {} when accepted; 404 for an unknown stream, or an event not of that stream; 409 for an
// event whose state does not allow redelivery (only `failed` does).
import type { OperationCard } from '../../specs/cards/card.ts';
import type { Components } from '../components.ts';
import type { RouteHandler } from '../exchange.ts';
import { refuse } from '../refusal.ts';
import { authenticate } from '../stages/authenticate.ts';
import { authorize } from '../stages/authorize.ts';
import { validatePath } from '../stages/validate.ts';
import type { StoredEvent } from '../store.ts';
import { success } from './success.ts';

export function redeliverRoute(deps: Components, card: OperationCard): RouteHandler {
  return async function redeliver(exchange) {
    const principal = await authenticate(deps, exchange);
    authorize(deps, principal, card);
    const { id, event_id } = validatePath(deps, card.key, exchange.params);
    const event = redeliverableEvent(deps, id!, event_id!);
    deps.store.recordRedelivery(event);
    return success(card, {});
  };
}

function redeliverableEvent(deps: Components, streamId: string, eventId: string): StoredEvent {
  if (!deps.store.stream(streamId)) refuse(deps, 'stream_not_found');
  const event = deps.store.event(streamId, eventId) ?? refuse(deps, 'event_not_found');
  if (event.status !== 'failed') refuse(deps, 'event_not_redeliverable');
  return event;
}
