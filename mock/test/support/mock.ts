// Starting the mock for tests: on port 0, closed when the test (or the file) is done. Cleanup is
// registered as soon as the server exists.
import { afterAll, beforeAll, onTestFinished } from 'vitest';
import { createMockServer, type MockServer, type MockServerOptions } from '../../index.ts';

/** A mock for one test, closed when the test finishes. */
export async function mockForTest(options: MockServerOptions = {}): Promise<MockServer> {
  const mock = await createMockServer(options);
  onTestFinished(() => mock.close());
  return mock;
}

/** One mock shared by the tests of a file (for tests that do not change its state in ways others see). */
export function sharedMock(options: MockServerOptions = {}): () => MockServer {
  let mock: MockServer | undefined;
  beforeAll(async () => {
    mock = await createMockServer(options);
  });
  afterAll(() => mock?.close());
  return () => {
    if (!mock) throw new Error('the shared mock is not started yet');
    return mock;
  };
}
