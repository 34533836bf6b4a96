// Setup file of the suite under StrykerJS only (bench/stryker/vitest.config.ts), never of
// `npm start`: the mock runs here, in the test worker, where Stryker switches its mutants on.
// Every run is a new worker, so a new mock (a fresh store and bucket) and the mock's modules
// evaluated again, for the mutants of their module-level code. It listens on the port and signs
// with the key that the run settings name (run-provider.ts).
import { beforeAll, beforeEach, inject } from 'vitest';
import type { MockServer } from '../../mock/index.ts';

const STARTED = Symbol.for('mgmt-api-conformance.stryker.in-worker-mock');
const holder = globalThis as { [STARTED]?: Promise<MockServer | Error> };

// Started before the first test; a mutant that breaks the mock's start (or its modules' loading)
// fails every test, each saying why. Not by failing a hook: vitest would report the tests as
// skipped, which Stryker reads as a survivor. The mock is never closed: it ends with its worker,
// at the end of the run.
beforeAll(() => {
  holder[STARTED] ??= startMock().catch((error: unknown) => (error instanceof Error ? error : new Error(String(error))));
});

beforeEach(async () => {
  const started = await holder[STARTED];
  if (started instanceof Error) throw new Error(`the mock did not start: ${started.message}`);
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
