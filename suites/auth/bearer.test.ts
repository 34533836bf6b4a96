// The 401 matrix: every operation against every credential a conforming target must refuse.
// Redelivery's answer is 401 by spec section 7; every operation must refuse (spec 5, rule 1), and
// the real service answers them all 401 (observed). One request per operation and credential,
// read by each clause it bears on.
import { conformance, expectRefused, expectStatus, generatedCases } from '../../harness/index.ts';
import { malformedAuthorization } from '../../generators/index.ts';
import { clause, operationKeys } from '../../specs/index.ts';
import { operationNeeds, validRequest, withCredential } from '../requests.ts';
import { badCredentials } from './credentials.ts';

const redeliverClause = (signature: boolean) => (signature ? 'redeliver.errors.401.signature' : 'redeliver.errors.401.invalid-token');

for (const bad of badCredentials) {
  for (const op of operationKeys) {
    const request = withCredential(op, bad.name, bad.make, bad);

    if (op === 'redeliver') {
      const id = redeliverClause(bad.signature);
      conformance(`[§${clause(id).section} ${id}] redelivery answers 401 to ${bad.name}`, request.plan, async ({ target }) => {
        expectStatus(await request.send(target), 401);
      });
    } else {
      conformance(`[§7 errors.401.all-operations] ${op} answers 401 to ${bad.name}`, request.plan, async ({ target }) => {
        expectStatus(await request.send(target), 401);
      });
    }

    conformance(`[§5 auth.bearer.required] ${op} refuses ${bad.name}`, request.plan, async ({ target }) => {
      expectRefused(await request.send(target));
    });
  }
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
