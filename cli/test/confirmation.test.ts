// End to end, failures confirmed before the verdict: a target that fails one exchange once (a
// gateway's transient 503 in front of the mock) leaves the clause "not reproduced" with both
// answers, and the verdict INCOMPLETE, never PASS or FAIL; the same target failing every time is a
// confirmed FAIL; a write is never sent twice; what confirming cost is in the report.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { afterAll, describe, expect, it } from 'vitest';
import { createMockServer, type MockServer, type RouteHandler } from '../../mock/index.ts';
import { resultsOf, root, run, writeTargetFile, type Finished } from './support/programs.ts';

const work = mkdtempSync(join(tmpdir(), 'confirmation-e2e-'));
const keyFile = join(work, 'signing-key.pem');
afterAll(() => rmSync(work, { recursive: true, force: true }));

const UNKNOWN_VAULT =
  '[§7 errors.404.vault] the vault read answers 404 "Connection not found" to a request with the connection id well formed, naming no resource';
const gatewayError = () => ({
  status: 503,
  headers: { 'content-type': 'application/json; charset=utf-8' },
  body: { message: 'upstream connect error (transient)' },
});

/** A mock whose route answers 503 instead of itself, the first `times` times a request `which` picks comes. */
async function failing(route: 'vault' | 'redeliver', times: number, which: (path: string) => boolean): Promise<MockServer> {
  let left = times;
  return createMockServer({
    signingKey: keyFile,
    report: () => {},
    customize: (hooks) =>
      hooks.wrapRoute(route, (next: RouteHandler): RouteHandler => (exchange) => {
        if (left > 0 && which(exchange.path)) {
          left -= 1;
          return Promise.resolve(gatewayError());
        }
        return next(exchange);
      }),
  });
}

async function conformance(mock: MockServer, name: string, grep: string): Promise<{ finished: Finished; out: string }> {
  const target = writeTargetFile({ url: mock.url, dir: work, name: `${name}.yaml`, keyFile });
  const out = join(work, name);
  // --strict: the observed clauses gate too, so a failure of theirs is confirmed. The row alone, not
  // its twins beside the less common and the open forms (their titles go on "(beside ...)").
  const finished = await run(
    'cli/conformance.ts',
    ['--target-file', target.path, '--strict', '--grep', grep, '--grep-invert', '(beside ', '--out', out],
    target.env,
  );
  return { finished, out };
}

const fixtures = parse(readFileSync(join(root, 'targets', 'mock.yaml'), 'utf8')) as { fixtures: { vault_connections: string[] } };
/** A read of a vault connection the target does not have (the preflight reads one it has). */
const unknownVaultRead = (path: string) => !fixtures.fixtures.vault_connections.some((id) => path.endsWith(`/${id}`));

describe('a target that fails one exchange once', () => {
  it('is "not reproduced" with both answers, its clause not verified, the verdict INCOMPLETE', async () => {
    const mock = await failing('vault', 1, unknownVaultRead);
    try {
      const { finished, out } = await conformance(mock, 'once', UNKNOWN_VAULT);
      expect(finished.code).toBe(4);
      expect(finished.stdout).toContain('RESULT: INCOMPLETE');
      expect(finished.stdout).toMatch(/^NOT REPRODUCED .*\[§7 errors\.404\.vault\] the vault read answers 404 .* naming no resource$/m);
      expect(finished.stdout).toMatch(/the first time it failed:\n.*\n.*expected: status 404.*\n.*actual: {3}status 503/);
      expect(finished.stdout).toMatch(
        // Its positive control (a read of a connection that exists) and its own read, sent afresh.
        /sent once more \(2 requests\), it passed; the answers:\n {4}GET \/api\/v2\/flows\/vault\/connections\/\S+ -> 200 .*\n {4}GET \/api\/v2\/flows\/vault\/connections\/\S+ -> 404 application\/json.*Connection not found/,
      );
      expect(finished.stdout).toMatch(
        /errors\.404\.vault: \[not-reproduced\] it failed once and passed when its requests were sent once more/,
      );
      expect(finished.stdout).toMatch(
        /^confirmations: 1 failure sent once more \(2 requests of the 20 reserved\): 0 reproduced, 1 not reproduced; 0 not confirmed$/m,
      );
      const results = resultsOf(out);
      expect(results.tests.filter((t) => t.state === 'failed')).toEqual([]);
      expect(results.clauses.find((c) => c.id === 'errors.404.vault')?.status).toBe('not verified');
      expect(readFileSync(join(out, 'summary.md'), 'utf8')).toContain('## Failures that did not reproduce');
      // Every request the run sent is counted, the confirmation's too.
      expect(results.info.confirmations).toMatchObject({ requests: 2, notReproduced: 1 });
    } finally {
      await mock.close();
    }
  }, 120_000);
});

describe('a target that fails every time', () => {
  it('is a confirmed FAIL', async () => {
    const mock = await failing('vault', Number.POSITIVE_INFINITY, unknownVaultRead);
    try {
      const { finished } = await conformance(mock, 'always', UNKNOWN_VAULT);
      expect(finished.code).toBe(1);
      expect(finished.stdout).toMatch(/actual: {3}status 503[\s\S]*confirmed: it failed again when its requests were sent once more \(2\)/);
    } finally {
      await mock.close();
    }
  }, 120_000);
});

describe('a refusal of a write that fails once', () => {
  it('is sent once more, its positive control (a redelivery) reused, not sent again', async () => {
    const fixtures = parse(readFileSync(join(root, 'targets', 'mock.yaml'), 'utf8')) as { fixtures: { event_stream: string } };
    const unknownStream = (path: string) => !path.includes(`/${fixtures.fixtures.event_stream}/`);
    const mock = await failing('redeliver', 1, unknownStream);
    try {
      const redeliveries = () => [...mock.store.streams()].flatMap((s) => [...s.events.values()]).reduce((n, e) => n + e.redeliveries, 0);
      const { finished, out } = await conformance(
        mock,
        'refusal',
        '[§7 redeliver.errors.404.stream] redelivery answers 404 to a request with the stream id well formed, naming no resource',
      );
      expect(finished.code).toBe(4);
      expect(finished.stdout).toMatch(
        /sent once more \(1 requests\), it passed; the answers:\n {4}POST \/api\/v2\/event-streams\/\S+ -> 404/,
      );
      expect(resultsOf(out).info.confirmations).toMatchObject({ requests: 1, notReproduced: 1 });
      expect(redeliveries()).toBe(1);
    } finally {
      await mock.close();
    }
  }, 120_000);
});

describe('a failed write', () => {
  it('is not sent twice: its failure stands, not confirmed, with the reason', async () => {
    const mock = await failing('redeliver', 1, () => true);
    try {
      const { finished } = await conformance(mock, 'write', '[§4.1 redeliver.success.202]');
      expect(finished.code).toBe(1);
      expect(finished.stdout).toContain('not confirmed: it writes; its requests are not sent twice');
      expect(finished.stdout).toMatch(
        /^confirmations: 0 failures sent once more \(0 requests of the 20 reserved\): 0 reproduced, 0 not reproduced; 1 not confirmed$/m,
      );
    } finally {
      await mock.close();
    }
  }, 120_000);
});
