// The clauses an answer bears on, for the outcomes the matrix's rows expect: a request without a
// valid credential (401), one whose token lacks the scope (403), the real service's observed
// refusals. Each builder names the clauses once, so every row of the same kind cites the same.
import type { ClauseCheck, OperationCard, Outcome } from '../cards/card.ts';
import { observed } from '../observed.ts';

export const accepted: Outcome = { kind: 'accept' };
export const refused: Outcome = { kind: 'refuse' };
export const status = (code: number): Outcome => ({ kind: 'status', status: code });
export const observedError = (error: string, naming?: string, notNaming?: string[]): Outcome => ({
  kind: 'observed-error',
  error,
  ...(naming === undefined ? {} : { naming }),
  ...(notNaming === undefined || notNaming.length === 0 ? {} : { notNaming }),
});

/**
 * The scopes of the other operations: a 403 lists the scopes any of which would grant the request
 * ("expected any of:"), and another operation's scope grants nothing here (its token is refused).
 */
function otherOperationsScopes(card: OperationCard): string[] {
  const own = card.scope.value;
  return [...new Set(Object.values(observed.operations).map((operation) => operation.scope.value))].filter((scope) => scope !== own);
}

/**
 * A request that lacks a valid bearer JWT: every operation refuses it (spec 5, rule 1); redelivery
 * answers it 401 (spec 7, the signature's own row where a signature check is what catches it); the
 * real service answers it 401 on the other operations (observed), with the message of `error`
 * where one is known (observed.yaml errors).
 */
export function unauthenticated(card: OperationCard, options: { signature?: boolean; error?: string } = {}): ClauseCheck[] {
  const clause = options.signature ? card.unauthenticated.signatureClause : card.unauthenticated.clause;
  return [
    { clause, outcome: status(401) },
    { clause: 'auth.bearer.required', outcome: refused },
    ...(options.error ? [{ clause: 'errors.401.message', outcome: observedError(options.error) }] : []),
  ];
}

/** A token the service would not have issued, refused only by the real service's rules (observed). */
export function refusedByObservedRule(clause: string): ClauseCheck[] {
  return [{ clause, outcome: status(401) }];
}

/**
 * A token without the operation's scope: refused (its scope rule), 403 where a clause says so, and
 * the scope named, no other operation's with it (observed).
 */
export function forbidden(card: OperationCard): ClauseCheck[] {
  const { scope } = card;
  const statusOnRule = scope.statusClauses.includes(scope.clause);
  return [
    { clause: scope.clause, outcome: statusOnRule ? status(403) : refused },
    ...scope.statusClauses.filter((clause) => clause !== scope.clause).map((clause) => ({ clause, outcome: status(403) })),
    { clause: 'errors.403.scope-named', outcome: observedError('insufficient_scope', scope.value, otherOperationsScopes(card)) },
  ];
}

/** A token that holds the operation's scope among others, or twice: accepted (its scope rule). */
export function allowedByScope(card: OperationCard): ClauseCheck[] {
  return [{ clause: card.scope.clause, outcome: accepted }];
}
