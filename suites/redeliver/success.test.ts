// Spec section 4.1: redelivery of a failed event answers 202; observed: with {} as JSON. One
// redelivery, read by both.
import { conformance, expectEqual, expectObservedContentType, expectStatus } from '../../harness/index.ts';
import { observed } from '../../specs/index.ts';
import { successOf } from '../../harness/suite/requests.ts';

const redelivery = successOf('redeliver');

conformance('[§4.1 redeliver.success.202] redelivery of a failed event answers 202', redelivery.plan, async ({ target }) => {
  expectStatus(await redelivery.send(target), 202);
});

conformance('[§4.1 redeliver.response.body] the 202 of a redelivery carries {} as JSON', redelivery.plan, async ({ target }) => {
  const exchange = await redelivery.send(target);
  expectStatus(exchange, observed.operations.redeliver.success.status);
  expectObservedContentType(exchange);
  expectEqual(exchange.json, observed.operations.redeliver.success.body, 'body', { exchange });
});
