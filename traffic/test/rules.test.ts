// The judges' table names clauses of the registry and reads its values from specs/.
import { expect, test } from 'vitest';
import { hasClause, observed, operation, operationKeys, type OperationKey } from '../../specs/index.ts';
import { operationRules, sharedClauses, tokenClauses } from '../rules.ts';

test('every clause the judges name is in specs/clauses.yaml', () => {
  const named = [
    ...Object.values(sharedClauses),
    ...Object.values(tokenClauses),
    ...operationKeys.flatMap((op) => {
      const r = operationRules[op];
      return [
        ...r.scope.clauses,
        ...Object.values(r.unauthenticated),
        ...(r.globalClient ? Object.values(r.globalClient) : []),
        r.success.observed.clause,
        ...(r.success.contract ? [r.success.contract.clause] : []),
        ...(r.successBody ? [r.successBody.contentTypeClause, r.successBody.shapeClause] : []),
        ...(r.emptySuccessClause ? [r.emptySuccessClause] : []),
        ...(r.echoes ? [r.echoes.clause] : []),
        ...r.pathLimits.map((l) => l.clause),
        ...r.headerLimits.map((l) => l.clause),
        ...(r.body ? [r.body.observedClause, r.body.optionalClause] : []),
        ...(r.notFound ? [r.notFound.clause] : []),
        ...(r.customDomainHostClause ? [r.customDomainHostClause] : []),
      ];
    }),
  ];
  expect(named.filter((id) => !hasClause(id))).toEqual([]);
});

test('each operation is held to the scope and success status of observed.yaml', () => {
  expect(operationKeys.map((op) => [operationRules[op].scope.value, operationRules[op].success.observed.status])).toEqual(
    operationKeys.map((op) => [observed.operations[op].scope.value, observed.operations[op].success.status]),
  );
});

test('the path limits are the path parameters the OpenAPI document bounds, on each operation', () => {
  const bounded = (op: OperationKey) =>
    operation(op)
      .parameters.filter((p) => p.in === 'path' && (p.schema.minLength !== undefined || p.schema.maxLength !== undefined))
      .map((p) => p.name);
  expect(operationKeys.flatMap((op) => bounded(op)).length).toBeGreaterThan(0);
  expect(Object.fromEntries(operationKeys.map((op) => [op, operationRules[op].pathLimits.map((l) => l.name)]))).toEqual(
    Object.fromEntries(operationKeys.map((op) => [op, bounded(op)])),
  );
});
