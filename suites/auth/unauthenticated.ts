// The clauses a request without a valid credential bears on, for one operation: redelivery answers
// it 401 (spec 7), every operation refuses it (spec 5, rule 1), and the real service answers it
// 401 on the other operations too (observed). One shared request, read by each.
import { conformance, expectRefused, expectStatus, type Exchange } from '../../harness/index.ts';
import { clause, type OperationKey } from '../../specs/index.ts';
import type { SharedCall } from '../requests.ts';

/** One clause a request without a valid credential bears on, for one operation. */
export interface UnauthenticatedClause {
  /** The test title for a request described by `what` (read after "answers 401 to" or "refuses"). */
  title(what: string): string;
  check(exchange: Exchange): void;
}

/** The clauses of one operation; `signature`: a signature check is what should catch the credential (spec 7). */
export function unauthenticatedClauses(op: OperationKey, signature = false): UnauthenticatedClause[] {
  const answers401 = (id: string, who: string): UnauthenticatedClause => ({
    title: (what) => `[§${clause(id).section} ${id}] ${who} answers 401 to ${what}`,
    check: (exchange) => expectStatus(exchange, 401),
  });
  return [
    op === 'redeliver'
      ? answers401(signature ? 'redeliver.errors.401.signature' : 'redeliver.errors.401.invalid-token', 'redelivery')
      : answers401('errors.401.all-operations', op),
    { title: (what) => `[§5 auth.bearer.required] ${op} refuses ${what}`, check: expectRefused },
  ];
}

/** `what` reads after "answers 401 to"; `signature`: a signature check is what should catch it (spec 7). */
export function refusedAsUnauthenticated(op: OperationKey, what: string, request: SharedCall, signature = false): void {
  for (const row of unauthenticatedClauses(op, signature)) {
    conformance(row.title(what), request.plan, async ({ target }) => {
      row.check(await request.send(target));
    });
  }
}
