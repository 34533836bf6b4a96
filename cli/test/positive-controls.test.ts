// End to end: a refusal verifies nothing without its positive control. Against a server that answers
// every request of the three operations with a JSON 404, as a generic mock that resolves no route
// does (its token endpoint and keys work), no clause of the three operations is reported verified:
// the refusals are "not verified: positive control failed", the successes fail, and the verdict is
// not PASS.
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockServer, type MockServer } from '../../mock/index.ts';
import { jsonReply } from '../../mock/exchange.ts';
import { operationKeys } from '../../specs/index.ts';
import { resultsOf, run, runAgainstDouble, writeTargetFile, type Finished } from './support/programs.ts';

const work = mkdtempSync(join(tmpdir(), 'positive-controls-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
/** Tests that send to the token endpoint, whose clauses are not the three operations'. */
const TOKEN_FILES = ['suites/matrix/token-requests.test.ts', 'suites/token/'];

describe('a target that answers every operation request with 404', () => {
  let mock: MockServer;
  let finished: Finished;
  const out = join(work, 'reports');

  beforeAll(async () => {
    ({ mock, finished } = await runAgainstDouble(work, out, (hooks) => {
      for (const key of operationKeys) {
        hooks.wrapRoute(key, () => async () => jsonReply(404, { statusCode: 404, error: 'Not Found', message: 'no route' }));
      }
    }));
  }, 620_000);

  afterAll(async () => {
    await mock.close();
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
    // The matrix's rows stand on the valid request; a test may stand on another success (the
    // global-client rule across operations, on another operation served to the same client).
    expect(
      controlled.filter((t) => /positive control failed: the valid request was answered 404/.test(t.skip!.reason)).length,
    ).toBeGreaterThan(100);
    for (const t of controlled)
      expect(t.skip!.reason).toMatch(/^positive control failed: .+ was answered 404, so a refusal proves nothing here$/);
  });
});

// The rows made with the key client's key expect a token signed with it refused. Where the tenant
// was never given that key, the refusal proves no more than a foreign key's: the rows stand on the
// key client's own token request (a client assertion signed with the key), which fails here.
describe('a key client whose key the target does not know', () => {
  let mock: MockServer;
  let finished: Finished;
  const out = join(work, 'unknown-client-key');
  const rowsOfTheKey = /private_key_jwt/;

  beforeAll(async () => {
    mock = await createMockServer({
      port: 0,
      signingKey: join(work, 'key-2.pem'),
      rateLimit: { bucketSize: 100_000, refillPerSecond: 1000 },
    });
    const otherKey = join(work, 'not-the-client-key.pem');
    writeFileSync(otherKey, generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }));
    const target = writeTargetFile({
      url: mock.url,
      dir: work,
      name: 'unknown-client-key.yaml',
      keyFile: join(work, 'key-2.pem'),
      change: (t) => {
        t.token_alternatives.key_client.private_key_file = otherKey;
      },
    });
    finished = await run(
      'cli/conformance.ts',
      ['--target-file', target.path, '--grep', rowsOfTheKey.source, '--out', out],
      target.env,
      300_000,
    );
  }, 320_000);

  afterAll(async () => {
    await mock.close();
  });

  it("verifies none of its rows, naming the key client's token request as the control that failed", () => {
    const rows = resultsOf(out).tests.filter((t) => rowsOfTheKey.test(t.name));
    expect(rows.length).toBeGreaterThan(3);
    for (const row of rows) {
      expect(row.skip?.category, row.name).toBe('control');
      expect(row.skip?.reason, row.name).toMatch(
        /positive control failed: the key client's token request with a client assertion signed with its key was answered 401/,
      );
    }
    expect(resultsOf(out).verdict).not.toBe('PASS');
    expect(finished.code).not.toBe(0);
  });
});
