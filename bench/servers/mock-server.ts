// Benchmark child (a): the mock with its default fixtures, the rate limit raised out of reach.
import { createMockServer } from '../../mock/index.ts';
import { serveUntilStopped } from './ipc.ts';

const BEYOND_REACH = 1_000_000_000;

const mock = await createMockServer({ port: 0, rateLimit: { bucketSize: BEYOND_REACH, refillPerSecond: BEYOND_REACH } });
serveUntilStopped(mock.url, () => mock.close());
