// Section 8: the vault connection id in the path has at most 30 characters. An existing id at the
// maximum is accepted; the same id with one character added is refused (a server that truncates
// would answer it); realistic ids over the maximum are refused.
import {
  cases,
  conformance,
  expectObservedError,
  expectRefused,
  expectSuccess,
  fixture,
  type PlanContext,
  type TargetSession,
} from '../../harness/index.ts';
import { vaultConnectionIdOverMaximum } from '../../generators/index.ts';
import { limit } from '../../specs/index.ts';
import { refusalPlan, refusals, sendRefusal } from '../refusals.ts';
import { sharedRequest, vaultRead } from '../requests.ts';

const maximum = limit('vault.path.id.length').max!;

const atMaximum = (ids: readonly string[]) => ids.find((candidate) => candidate.length === maximum);
const needsOneAtMaximum = {
  check: (c: PlanContext) =>
    atMaximum(c.target.fixtures.vaultConnections) === undefined
      ? `needs a vault connection whose id has the maximum length (${maximum}) in fixtures.vault_connections`
      : undefined,
  category: 'config' as const,
};

function connectionAtMaximum(target: TargetSession): string {
  return atMaximum(target.fixture('vaultConnections'))!;
}

conformance(
  '[§4.3 vault.path.id.length] the vault read accepts an existing id of the maximum length',
  {
    needs: [fixture('vaultConnections'), needsOneAtMaximum],
    requests: 0,
    shared: (c) => [sharedRequest.vaultRead(atMaximum(c.target.fixtures.vaultConnections) ?? '')],
  },
  async ({ target }) => {
    const id = connectionAtMaximum(target);
    expectSuccess(await vaultRead(target, id));
  },
);

conformance(
  '[§4.3 vault.path.id.length] the vault read refuses an existing id of the maximum length with one character added',
  { needs: [fixture('vaultConnections'), needsOneAtMaximum], requests: 1 },
  async ({ target }) => {
    expectRefused(await target.call('vault', { params: { id: `${connectionAtMaximum(target)}x` } }));
  },
);

conformance(
  '[§4.3 vault.path.id.length] the vault read refuses realistic ids over the maximum length',
  { ...refusalPlan(refusals.vaultIdOverMaximum), requests: cases(0) },
  async ({ target }) => {
    expectRefused(await sendRefusal(target, refusals.vaultIdOverMaximum));
    await target.cases([], vaultConnectionIdOverMaximum(), async (id) => {
      expectRefused(await target.call('vault', { params: { id } }));
    });
  },
);

conformance(
  '[§7 errors.400.path] the vault read answers an id over the maximum with 400 invalid_uri naming id',
  refusalPlan(refusals.vaultIdOverMaximum),
  async ({ target }) => {
    expectObservedError(await sendRefusal(target, refusals.vaultIdOverMaximum), 'invalid_uri', 'id');
  },
);
