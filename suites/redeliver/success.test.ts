import { conformance, expectClause, expectObservedContentType, expectStatus } from '../../harness/index.ts';
import { observed } from '../../specs/index.ts';

conformance('[§4.1 redeliver.success.202] redelivery of a failed event answers 202', async ({ target }) => {
  target.writes();
  const exchange = await target.call('redeliver', {
    params: { id: target.fixture('eventStream'), event_id: target.fixture('failedEvent') },
  });
  expectStatus(exchange, 202);
});

conformance('[§4.1 redeliver.response.body] the 202 of a redelivery carries {} as JSON', async ({ target }) => {
  target.writes();
  const exchange = await target.call('redeliver', {
    params: { id: target.fixture('eventStream'), event_id: target.fixture('failedEvent') },
  });
  expectStatus(exchange, observed.operations.redeliver.success.status);
  expectObservedContentType(exchange);
  expectClause({
    pass: JSON.stringify(exchange.json) === JSON.stringify(observed.operations.redeliver.success.body),
    expected: `body ${JSON.stringify(observed.operations.redeliver.success.body)}`,
    actual: `body ${exchange.text || '(empty)'}`,
    exchange,
  });
});
