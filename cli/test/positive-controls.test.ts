// End to end: a refusal verifies nothing without its positive control. Against a server that answers
// every request of the three operations with a JSON 404, as a generic mock that resolves no route
// does (its token endpoint and keys work), no clause of the three operations is reported verified:
// the refusals are "not verified: positive control failed", the successes fail, and the verdict is
// not PASS.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockServer, type MockServer } from '../../mock/index.ts';
import { jsonReply } from '../../mock/exchange.ts';
import { operationKeys } from '../../specs/index.ts';
import { resultsOf, run, writeTargetFile, type Finished } from './support/programs.ts';

const work = mkdtempSync(join(tmpdir(), 'positive-controls-'));
/** Tests that send to the token endpoint, whose clauses are not the three operations'. */
const TOKEN_FILES = ['suites/matrix/token-requests.test.ts', 'suites/token/'];

describe('a target that answers every operation request with 404', () => {
  let mock: MockServer;
  let finished: Finished;
  const out = join(work, 'reports');

  beforeAll(async () => {
    const keyFile = join(work, 'key.pem');
    mock = await createMockServer({
      port: 0,
      signingKey: keyFile,
      rateLimit: { bucketSize: 100_000, refillPerSecond: 1000 },
      customize(hooks) {
        for (const key of operationKeys) {
          hooks.wrapRoute(key, () => async () => jsonReply(404, { statusCode: 404, error: 'Not Found', message: 'no route' }));
        }
      },
    });
    const target = writeTargetFile({ url: mock.url, dir: work, name: 'target.yaml', keyFile });
    finished = await run('cli/conformance.ts', ['--target-file', target.path, '--seed', '7', '--out', out], target.env, 600_000);
  }, 620_000);

  afterAll(async () => {
    await mock.close();
    rmSync(work, { recursive: true, force: true });
  });

  it('is not PASS', () => {
    expect(finished.code, finished.stderr).not.toBe(0);
    expect(resultsOf(out).verdict).not.toBe('PASS');
  });

  it('verifies no clause of the three operations', () => {
    const results = resultsOf(out);
    const ofOperations = new Set(results.tests.filter((t) => !TOKEN_FILES.some((f) => t.file.startsWith(f))).map((t) => t.clause));
    const verified = results.clauses.filter((c) => ofOperations.has(c.id) && c.status === 'verified').map((c) => c.id);
    expect(verified).toEqual([]);
  });

  it('says which positive control failed', () => {
    const controlled = resultsOf(out).tests.filter((t) => t.skip?.category === 'control');
    expect(controlled.length).toBeGreaterThan(100);
    expect(controlled[0]!.skip!.reason).toMatch(/positive control failed: the valid request was answered 404/);
  });
});
