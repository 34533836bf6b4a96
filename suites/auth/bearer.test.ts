// The 401 matrix: every operation against every credential a conforming target must refuse.
// Redelivery's answer is 401 by spec section 7; the other two operations must refuse (spec 5,
// rule 1), and the real service answers them 401 as well (observed).
import fc from 'fast-check';
import { conformance, expectRefused, expectStatus } from '../../harness/index.ts';
import { malformedAuthorization } from '../../generators/index.ts';
import { clause, operationKeys } from '../../specs/index.ts';
import { validRequest } from '../requests.ts';
import { badCredentials, credentialFor } from './credentials.ts';

const redeliverClause = (signature: boolean) => (signature ? 'redeliver.errors.401.signature' : 'redeliver.errors.401.invalid-token');

const otherOperations = operationKeys.filter((key) => key !== 'redeliver');

for (const bad of badCredentials) {
  const id = redeliverClause(bad.signature);
  conformance(`[§${clause(id).section} ${id}] redelivery answers 401 to ${bad.name}`, async ({ target }) => {
    const credential = await credentialFor(target, bad);
    expectStatus(await target.call('redeliver', { ...validRequest(target, 'redeliver'), as: credential }), 401);
  });

  for (const op of otherOperations) {
    conformance(`[§5 auth.bearer.required] ${op} refuses ${bad.name}`, async ({ target }) => {
      const credential = await credentialFor(target, bad);
      expectRefused(await target.call(op, { ...validRequest(target, op), as: credential }));
    });

    conformance(`[§7 errors.401.all-operations] ${op} answers 401 to ${bad.name}`, async ({ target }) => {
      const credential = await credentialFor(target, bad);
      expectStatus(await target.call(op, { ...validRequest(target, op), as: credential }), 401);
    });
  }
}

conformance('[§7 redeliver.errors.401.invalid-token] redelivery answers 401 to generated malformed Authorization values', async ({ target }) => {
  const request = validRequest(target, 'redeliver');
  await fc.assert(
    fc.asyncProperty(malformedAuthorization(), async (authorization) => {
      expectStatus(await target.call('redeliver', { ...request, as: { authorization } }), 401);
    }),
  );
});

for (const op of otherOperations) {
  conformance(`[§5 auth.bearer.required] ${op} refuses generated malformed Authorization values`, async ({ target }) => {
    const request = validRequest(target, op);
    await fc.assert(
      fc.asyncProperty(malformedAuthorization(), async (authorization) => {
        expectRefused(await target.call(op, { ...request, as: { authorization } }));
      }),
    );
  });
}
