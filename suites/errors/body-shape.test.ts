// Observed: every error of the management interface has one body shape and one content type, on
// every operation. One table over errors a conforming target gives, each read from the request
// another test already sends. None writes on a conforming target; the two refusals made from an
// existing id (the stream id one short, ttl_sec over the maximum) would write on one that wrongly
// accepted them, so they declare writes and run on a tenant only with --allow-writes.
import { conformance, expectObservedContentType, expectObservedErrorBody } from '../../harness/index.ts';
import { operationKeys, type OperationKey } from '../../specs/index.ts';
import { refusalCall, refusals, type Refusal } from '../refusals.ts';
import { withoutScope, type SharedCall } from '../requests.ts';
import { withoutToken } from '../auth/credentials.ts';

interface ErrorCase extends SharedCall {
  error: string;
  op: OperationKey;
}

function noToken(op: OperationKey): ErrorCase {
  return { error: '401 (no token)', op, ...withoutToken(op) };
}

function scopeMissing(op: OperationKey): ErrorCase {
  return { error: '403 (scope missing)', op, ...withoutScope(op) };
}

function refused(error: string, refusal: Refusal): ErrorCase {
  return { error, op: refusal.op, ...refusalCall(refusal) };
}

const errorCases: ErrorCase[] = [
  ...operationKeys.flatMap((op) => [noToken(op), scopeMissing(op)]),
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
