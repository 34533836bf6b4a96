// Spec section 5 rule 4 and section 7: redelivery needs update:event_deliveries (else 403) and a
// global client (else 401). The ids exist, so the refusal can only be about the credential.
import { conformance, expectObservedError, expectRefused, expectStatus, role } from '../../harness/index.ts';
import { withCredential, withoutScope } from '../requests.ts';

const scopeMissing = withoutScope('redeliver');
const notGlobal = withCredential('redeliver', 'role non_global', async (target) => ({ role: target.role('non_global') }), {
  needs: [role('non_global')],
});

conformance('[§5 redeliver.scope] redelivery refuses a token without update:event_deliveries', scopeMissing.plan, async ({ target }) => {
  expectRefused(await scopeMissing.send(target));
});

conformance(
  '[§7 redeliver.errors.403.scope] redelivery answers 403 to a token without update:event_deliveries',
  scopeMissing.plan,
  async ({ target }) => {
    expectStatus(await scopeMissing.send(target), 403);
  },
);

conformance(
  '[§5 redeliver.global-client] redelivery refuses a token of a client that is not global',
  notGlobal.plan,
  async ({ target }) => {
    expectRefused(await notGlobal.send(target));
  },
);

conformance(
  '[§7 redeliver.errors.401.not-global] redelivery answers 401 to a token of a client that is not global',
  notGlobal.plan,
  async ({ target }) => {
    expectStatus(await notGlobal.send(target), 401);
  },
);

conformance('[§7 errors.401.message] a client that is not global is told "Client is not global"', notGlobal.plan, async ({ target }) => {
  expectObservedError(await notGlobal.send(target), 'client_not_global');
});
