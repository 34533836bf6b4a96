// The success reply of an operation, with the status the real service answers (observed).
import { observed, type OperationKey } from '../../specs/index.ts';
import { jsonReply, type Reply } from '../exchange.ts';

export function success(key: OperationKey, body: unknown): Reply {
  return jsonReply(observed.operations[key].success.status, body);
}
