// End to end, the real-tenant mode: a mock started by hand and described WITHOUT test_double
// stands for someone's tenant. Without opt-ins the run is INCOMPLETE, naming what it could not
// verify; --list sends nothing and agrees with what a run sends. The budget, the time bound and
// odd rate limits: real-tenant-limits.test.ts.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resultsOf, run, startMockProgram, writeTargetFile, type Finished, type Started } from './support/programs.ts';

const work = mkdtempSync(join(tmpdir(), 'real-tenant-e2e-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('a tenant without opt-ins', () => {
  let mock: Started;
  let finished: Finished;
  const out = join(work, 'no-opt-ins');
  beforeAll(async () => {
    mock = await startMockProgram(['--port', '0', '--bucket-size', '60', '--refill-per-second', '30']);
    const target = writeTargetFile({
      url: mock.url,
      dir: work,
      name: 'no-opt-ins.yaml',
      asTenant: true,
      change: (t) => {
        t.rate_limit = { limit: 60, refill_per_second: 30 };
      },
    });
    finished = await run('cli/conformance.ts', ['--target-file', target.path, '--out', out], target.env);
  }, 180_000);
  afterAll(() => mock?.stop());

  it('is INCOMPLETE (exit 4), never PASS, naming each unverified clause and why', () => {
    expect(finished.code).toBe(4);
    expect(finished.stdout).toContain('RESULT: INCOMPLETE');
    expect(finished.stdout).toMatch(
      /redeliver\.success\.202: \[opt-in\] it makes the target write; against a target that is not a test double that needs --allow-writes/,
    );
    expect(finished.stdout).toMatch(
      /redeliver\.errors\.429: \[opt-in\] it spends the target's rate limit on purpose; .* needs --allow-rate-limit-exhaustion/,
    );
    const results = resultsOf(out);
    expect(
      results.tests.some(
        (t) =>
          t.skip?.category === 'alternative' &&
          /needs an expired token: signing_key_file, or token_alternatives\.expired_token_env/.test(t.skip.reason),
      ),
    ).toBe(true);
    expect(results.verdict).toBe('INCOMPLETE');
    expect(results.tests.filter((t) => t.state === 'failed')).toEqual([]);
    expect(readFileSync(join(out, 'summary.md'), 'utf8')).toContain('## Gating clauses not verified');
    expect(readFileSync(join(out, 'junit.xml'), 'utf8')).toContain('<property name="unverified.redeliver.success.202"');
  });

  it('sends no generated cases, skips no test for having only generated ones, and no 429 comes back to it', () => {
    expect(finished.stdout).toMatch(/429s outside the exhaustion: 0/);
    expect(resultsOf(out).tests.filter((t) => t.skip?.category === 'random-only')).toEqual([]);
  });
});

describe('--list', () => {
  let mock: Started;
  let target: { path: string; env: Record<string, string> };
  let listed: Finished;
  let ran: Finished;
  const out = join(work, 'listed');
  const args = ['--allow-writes', '--allow-rate-limit-exhaustion', '--seed', '7', '--num-runs', '2'];
  beforeAll(async () => {
    const keyFile = join(work, 'list-key.pem');
    mock = await startMockProgram(['--port', '0', '--log', '--signing-key', keyFile, '--bucket-size', '50', '--refill-per-second', '30']);
    target = writeTargetFile({
      url: mock.url,
      dir: work,
      name: 'listed.yaml',
      asTenant: true,
      change: (t) => {
        t.signing_key_file = keyFile;
        t.rate_limit = { limit: 50, refill_per_second: 30 };
      },
    });
    listed = await run('cli/conformance.ts', ['--target-file', target.path, '--list', ...args], target.env);
  }, 60_000);
  afterAll(() => mock?.stop());

  it('prints every test, its clause and planned requests, and the total, sending nothing', () => {
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(/^request plan against .*listed\.yaml: \d+ tests, \d+ to run, \d+ skipped$/m);
    expect(listed.stdout).toMatch(/^request-model matrix: \d+ rows over \d+ elements/m);
    expect(listed.stdout).toMatch(/\[§7 redeliver\.errors\.409\.state\] redelivery answers 409 .* 1 request/);
    expect(listed.stdout).toMatch(
      /^total: \d+ requests = \d+ of the tests \+ \d+ shared \+ 2 preflight \+ 20 to confirm failures \(the exhaustion counted at its cap of 120\)$/m,
    );
    expect(mock.requests()).toBe(0);
  });

  it('agrees with what a run then sends, test by test and in all', async () => {
    ran = await run('cli/conformance.ts', ['--target-file', target.path, '--out', out, ...args], target.env);
    expect(ran.code).toBe(0);
    const results = resultsOf(out);
    const planned = new Map([...listed.stdout.matchAll(/^ {2}(\[§.*?) {2,}(\d+) requests?/gm)].map((m) => [m[1]!.trim(), Number(m[2])]));
    // A skipped test is listed as skipped, with no request count: it sends none.
    for (const test of results.tests) expect(`${test.name}: ${test.requests}`).toBe(`${test.name}: ${planned.get(test.name) ?? 0}`);
    const exhaustion = results.info.shared['rate-limit exhaustion'] ?? 0;
    const total = Number(/^total: (\d+) requests/m.exec(listed.stdout)![1]);
    // The reserve to confirm failures goes unspent where nothing fails.
    expect(results.info.confirmations).toEqual({ reserve: 20, requests: 0, reproduced: 0, notReproduced: 0, notConfirmed: 0 });
    expect(results.requests).toBe(total - results.info.exhaustionMax - results.info.confirmations!.reserve + exhaustion);
    // And the mock saw exactly that many.
    expect(mock.requests()).toBe(results.requests);
  }, 180_000);
});
