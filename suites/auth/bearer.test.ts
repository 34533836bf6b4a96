// The 401 matrix: every operation against every credential a conforming target must refuse.
// Redelivery's answer is 401 by spec section 7; every operation must refuse (spec 5, rule 1), and
// the real service answers them all 401 (observed). One request per operation and credential,
// read by each clause it bears on; generated malformed Authorization values, with the same clauses.
import { cases, conformance, generatedCases } from '../../harness/index.ts';
import { malformedAuthorization } from '../../generators/index.ts';
import { operationKeys } from '../../specs/index.ts';
import { operationNeeds, validRequest } from '../requests.ts';
import { badCredentials, withBadCredential } from './credentials.ts';
import { refusedAsUnauthenticated, unauthenticatedClauses } from './unauthenticated.ts';

for (const bad of badCredentials) {
  for (const op of operationKeys) refusedAsUnauthenticated(op, bad.name, withBadCredential(op, bad), bad.signature);
}

for (const op of operationKeys) {
  const plan = { operation: op, needs: [...operationNeeds[op], generatedCases], requests: cases(0) };
  for (const row of unauthenticatedClauses(op)) {
    conformance(row.title('generated malformed Authorization values'), plan, async ({ target }) => {
      const request = validRequest(target, op);
      await target.cases([], malformedAuthorization(), async (authorization) => {
        row.check(await target.call(op, { ...request, as: { authorization } }));
      });
    });
  }
}
