// Observed: the real service answers a malformed path id with 400 invalid_uri naming the
// parameter. These read the length refusals of path-lengths.test.ts.
import { conformance, expectObservedError } from '../../harness/index.ts';
import { refusalPlan, refusals, sendRefusal } from '../refusals.ts';

conformance(
  '[§7 errors.400.path] redelivery answers a short stream id with 400 invalid_uri naming id',
  refusalPlan(refusals.streamIdOneShort),
  async ({ target }) => {
    expectObservedError(await sendRefusal(target, refusals.streamIdOneShort), 'invalid_uri', 'id');
  },
);

conformance(
  '[§7 errors.400.path] redelivery answers a long event id with 400 invalid_uri naming event_id',
  refusalPlan(refusals.eventIdOneLong),
  async ({ target }) => {
    expectObservedError(await sendRefusal(target, refusals.eventIdOneLong), 'invalid_uri', 'event_id');
  },
);
