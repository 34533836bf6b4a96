// Setup file of the suite under StrykerJS only (bench/stryker/vitest.config.ts), never of
// `npm start`: the mock runs here, in the test worker, where Stryker switches its mutants on.
// Every run is a new worker, so a new mock (a fresh store and bucket) and the mock's modules
// evaluated again, for the mutants of their module-level code. It listens on the port and signs
// with the key that the run settings name (run-provider.ts).
import { beforeAll, inject } from 'vitest';
import type { MockServer } from '../../mock/index.ts';

const STARTED = Symbol.for('mgmt-api-conformance.stryker.in-worker-mock');
const holder = globalThis as { [STARTED]?: Promise<MockServer> };

// Started in a hook, not at the file's top level: a mutant that breaks the mock's start (or its
// modules' loading) then fails the file's tests, as vitest reports a failed hook, where an error in
// the setup file itself would leave the file with no test at all, which Stryker reads as a survivor.
// The mock is never closed: it ends with its worker, at the end of the run.
beforeAll(async () => {
  holder[STARTED] ??= startMock();
  await holder[STARTED];
});

async function startMock(): Promise<MockServer> {
  const { createMockServer } = await import('../../mock/index.ts');
  const wanted = inject('inWorkerMock');
  const { target } = inject('settings');
  const mock = await createMockServer({
    port: wanted.port,
    host: '127.0.0.1',
    signingKey: wanted.signingKey,
    rateLimit: { bucketSize: wanted.bucketSize, refillPerSecond: wanted.refillPerSecond },
    // A mutant that throws is answered 500, which the suite sees; its stack on standard error
    // would only flood Stryker's log.
    report: () => {},
  });
  if (`${mock.url}/api/v2` !== target.baseUrl || mock.audience !== target.audience) {
    throw new Error(
      `the in-worker mock (${mock.url}, audience ${mock.audience}) is not the target of the run settings (${target.baseUrl}, audience ${target.audience})`,
    );
  }
  return mock;
}
