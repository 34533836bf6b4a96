// Spec section 5 rule 4 and section 7: redelivery needs update:event_deliveries (else 403) and a
// global client (else 401). The ids exist, so the refusal can only be about the credential.
import { conformance, expectObservedError, expectRefused, expectStatus, type TargetSession } from '../../harness/index.ts';

function existingEvent(target: TargetSession) {
  return { id: target.fixture('eventStream'), event_id: target.fixture('failedEvent') };
}

conformance('[§5 redeliver.scope] redelivery refuses a token without update:event_deliveries', async ({ target }) => {
  const exchange = await target.call('redeliver', { params: existingEvent(target), as: { role: target.role('without_redeliver_scope') } });
  expectRefused(exchange);
});

conformance('[§7 redeliver.errors.403.scope] redelivery answers 403 to a token without update:event_deliveries', async ({ target }) => {
  const exchange = await target.call('redeliver', { params: existingEvent(target), as: { role: target.role('without_redeliver_scope') } });
  expectStatus(exchange, 403);
});

conformance('[§5 redeliver.global-client] redelivery refuses a token of a client that is not global', async ({ target }) => {
  const exchange = await target.call('redeliver', { params: existingEvent(target), as: { role: target.role('non_global') } });
  expectRefused(exchange);
});

conformance('[§7 redeliver.errors.401.not-global] redelivery answers 401 to a token of a client that is not global', async ({ target }) => {
  const exchange = await target.call('redeliver', { params: existingEvent(target), as: { role: target.role('non_global') } });
  expectStatus(exchange, 401);
});

conformance('[§7 errors.401.message] a client that is not global is told "Client is not global"', async ({ target }) => {
  const exchange = await target.call('redeliver', { params: existingEvent(target), as: { role: target.role('non_global') } });
  expectObservedError(exchange, 'client_not_global');
});
