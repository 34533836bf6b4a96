// Observed: every error of the management interface has one body shape and one content type, on
// every operation. One table over errors a target gives without being written to, each read from
// the request another test already sends.
import {
  conformance,
  expectObservedContentType,
  expectObservedErrorBody,
  type Exchange,
  type TargetSession,
  type TestPlan,
} from '../../harness/index.ts';
import { operationKeys, type OperationKey } from '../../specs/index.ts';
import { refusalPlan, refusals, sendRefusal } from '../refusals.ts';
import { withCredential, withoutScope } from '../requests.ts';

interface ErrorCase {
  error: string;
  op: OperationKey;
  plan: TestPlan;
  send(target: TargetSession): Promise<Exchange>;
}

function withoutToken(op: OperationKey): ErrorCase {
  return { error: '401 (no token)', op, ...withCredential(op, 'no Authorization header', async () => 'none') };
}

function scopeMissing(op: OperationKey): ErrorCase {
  return { error: '403 (scope missing)', op, ...withoutScope(op) };
}

function refused(error: string, refusal: (typeof refusals)[keyof typeof refusals]): ErrorCase {
  return { error, op: refusal.op, plan: refusalPlan(refusal), send: (t) => sendRefusal(t, refusal) };
}

const errorCases: ErrorCase[] = [
  ...operationKeys.flatMap((op) => [withoutToken(op), scopeMissing(op)]),
  refused('404 (unknown connection)', refusals.unknownVaultConnection),
  refused('404 (unknown stream)', refusals.unknownStream),
  refused('404 (unknown event)', refusals.unknownEvent),
  refused('400 (stream id too short)', refusals.streamIdOneShort),
  refused('400 (id too long)', refusals.vaultIdOverMaximum),
  refused('400 (ttl_sec over the maximum)', refusals.ttlSecOverMaximum),
];

for (const row of errorCases) {
  conformance(`[§7 errors.body.shape] the ${row.error} error of ${row.op} has the error body shape`, row.plan, async ({ target }) => {
    expectObservedErrorBody(await row.send(target));
  });

  conformance(
    `[§7 errors.body.content-type] the ${row.error} error of ${row.op} is application/json; charset=utf-8`,
    row.plan,
    async ({ target }) => {
      expectObservedContentType(await row.send(target));
    },
  );
}
