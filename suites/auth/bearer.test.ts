// The 401 matrix: every operation against every credential a conforming target must refuse.
// Redelivery's answer is 401 by spec section 7; every operation must refuse (spec 5, rule 1), and
// the real service answers them all 401 (observed). One request per operation and credential,
// read by each clause it bears on.
import { conformance, expectRefused, expectStatus, generatedCases } from '../../harness/index.ts';
import { malformedAuthorization } from '../../generators/index.ts';
import { operationKeys } from '../../specs/index.ts';
import { operationNeeds, validRequest, withCredential } from '../requests.ts';
import { badCredentials } from './credentials.ts';
import { refusedAsUnauthenticated } from './unauthenticated.ts';

for (const bad of badCredentials) {
  for (const op of operationKeys) refusedAsUnauthenticated(op, bad.name, withCredential(op, bad.name, bad.make, bad), bad.signature);
}

for (const op of operationKeys) {
  const plan = { operation: op, needs: [...operationNeeds[op], generatedCases], requests: (c: { numRuns: number }) => c.numRuns };
  const title =
    op === 'redeliver'
      ? '[§7 redeliver.errors.401.invalid-token] redelivery answers 401 to generated malformed Authorization values'
      : `[§5 auth.bearer.required] ${op} refuses generated malformed Authorization values`;
  conformance(title, plan, async ({ target }) => {
    const request = validRequest(target, op);
    await target.cases([], malformedAuthorization(), async (authorization) => {
      const exchange = await target.call(op, { ...request, as: { authorization } });
      if (op === 'redeliver') expectStatus(exchange, 401);
      else expectRefused(exchange);
    });
  });
}
