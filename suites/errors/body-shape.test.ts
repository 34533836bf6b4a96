// Observed: every error of the management interface has one body shape and one content type.
// One table over the errors a target gives without being written to.
import fc from 'fast-check';
import { conformance, expectObservedContentType, expectObservedErrorBody, type TargetSession } from '../../harness/index.ts';
import type { CallInput } from '../../harness/session.ts';
import { streamId, unknownIdOf, vaultConnectionId, vaultConnectionIdOverMaximum } from '../../generators/index.ts';
import type { OperationKey } from '../../specs/index.ts';
import { validRequest } from '../requests.ts';

interface ErrorCase {
  error: string;
  op: OperationKey;
  input(target: TargetSession): CallInput;
}

const one = <T>(target: TargetSession, arbitrary: fc.Arbitrary<T>): T => fc.sample(arbitrary, { numRuns: 1, seed: target.settings.seed })[0]!;

const cases: ErrorCase[] = [
  { error: '401 (no token)', op: 'vault', input: (t) => ({ ...validRequest(t, 'vault'), as: 'none' }) },
  { error: '403 (scope missing)', op: 'vault', input: (t) => ({ ...validRequest(t, 'vault'), as: { role: t.role('without_vault_scope') } }) },
  { error: '404 (unknown connection)', op: 'vault', input: (t) => ({ params: { id: one(t, unknownIdOf(vaultConnectionId(), t.fixture('vaultConnections'))) } }) },
  { error: '404 (unknown stream)', op: 'redeliver', input: (t) => ({ params: { id: one(t, unknownIdOf(streamId(), [t.fixture('eventStream')])), event_id: t.fixture('failedEvent') } }) },
  { error: '400 (id too long)', op: 'vault', input: (t) => ({ params: { id: one(t, vaultConnectionIdOverMaximum()) } }) },
];

for (const row of cases) {
  conformance(`[§7 errors.body.shape] the ${row.error} error of ${row.op} has the error body shape`, async ({ target }) => {
    expectObservedErrorBody(await target.call(row.op, row.input(target)));
  });

  conformance(`[§7 errors.body.content-type] the ${row.error} error of ${row.op} is application/json; charset=utf-8`, async ({ target }) => {
    expectObservedContentType(await target.call(row.op, row.input(target)));
  });
}
