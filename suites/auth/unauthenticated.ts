// The clauses a request without a valid credential bears on, for one operation: redelivery answers
// it 401 (spec 7), every operation refuses it (spec 5, rule 1), and the real service answers it
// 401 on the other operations too (observed). One shared request, read by each.
import { conformance, expectRefused, expectStatus } from '../../harness/index.ts';
import { clause, type OperationKey } from '../../specs/index.ts';
import type { SharedCall } from '../requests.ts';

/** `what` reads after "answers 401 to"; `signature`: a signature check is what should catch it (spec 7). */
export function refusedAsUnauthenticated(op: OperationKey, what: string, request: SharedCall, signature = false): void {
  if (op === 'redeliver') {
    const id = signature ? 'redeliver.errors.401.signature' : 'redeliver.errors.401.invalid-token';
    conformance(`[§${clause(id).section} ${id}] redelivery answers 401 to ${what}`, request.plan, async ({ target }) => {
      expectStatus(await request.send(target), 401);
    });
  } else {
    conformance(`[§7 errors.401.all-operations] ${op} answers 401 to ${what}`, request.plan, async ({ target }) => {
      expectStatus(await request.send(target), 401);
    });
  }

  conformance(`[§5 auth.bearer.required] ${op} refuses ${what}`, request.plan, async ({ target }) => {
    expectRefused(await request.send(target));
  });
}
