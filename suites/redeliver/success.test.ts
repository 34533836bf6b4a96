// Spec section 4.1: redelivery of a failed event answers 202; observed: with {} as JSON. One
// redelivery, read by both.
import {
  conformance,
  expectEqual,
  expectObservedContentType,
  expectStatus,
  fixture,
  writes,
  type TargetSession,
} from '../../harness/index.ts';
import { observed } from '../../specs/index.ts';
import { sharedRequest } from '../requests.ts';

const plan = {
  needs: [fixture('eventStream'), fixture('failedEvent'), writes],
  requests: 0,
  shared: [sharedRequest.redeliveryOfFailedEvent],
};

function redeliverFailedEvent(target: TargetSession) {
  return target.call('redeliver', {
    params: { id: target.fixture('eventStream'), event_id: target.fixture('failedEvent') },
    shared: sharedRequest.redeliveryOfFailedEvent,
  });
}

conformance('[§4.1 redeliver.success.202] redelivery of a failed event answers 202', plan, async ({ target }) => {
  expectStatus(await redeliverFailedEvent(target), 202);
});

conformance('[§4.1 redeliver.response.body] the 202 of a redelivery carries {} as JSON', plan, async ({ target }) => {
  const exchange = await redeliverFailedEvent(target);
  expectStatus(exchange, observed.operations.redeliver.success.status);
  expectObservedContentType(exchange);
  expectEqual(exchange.json, observed.operations.redeliver.success.body, 'body', { exchange });
});
