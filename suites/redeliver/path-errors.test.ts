// Observed: the real service answers a malformed path id with 400 invalid_uri naming the parameter.
// The ids are made from existing ones, so a server that ignores their length would write: opt-in.
import { conformance, expectObservedError } from '../../harness/index.ts';

conformance('[§7 errors.400.path] redelivery answers a short stream id with 400 invalid_uri naming id', async ({ target }) => {
  target.writes();
  const exchange = await target.call('redeliver', {
    params: { id: target.fixture('eventStream').slice(0, -1), event_id: target.fixture('failedEvent') },
  });
  expectObservedError(exchange, 'invalid_uri', 'id');
});

conformance('[§7 errors.400.path] redelivery answers a long event id with 400 invalid_uri naming event_id', async ({ target }) => {
  target.writes();
  const exchange = await target.call('redeliver', {
    params: { id: target.fixture('eventStream'), event_id: `${target.fixture('failedEvent')}x` },
  });
  expectObservedError(exchange, 'invalid_uri', 'event_id');
});
