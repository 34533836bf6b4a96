// The success reply of an operation, with the status its card gives (the real service's, observed).
import type { OperationCard } from '../../specs/cards/card.ts';
import { jsonReply, type Reply } from '../exchange.ts';

export function success(card: OperationCard, body: unknown): Reply {
  return jsonReply(card.success.status, body);
}
