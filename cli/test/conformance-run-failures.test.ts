// End to end: `npm start` against a faulty mock (a gating and an observed fault), with a role
// missing from the target file and against a target that misbehaves, and what it refuses to run:
// how it fails, what it says and writes (JUnit, summary.md, GitHub output), how it fails closed,
// and the secrets never in its failure output. Its passing runs: conformance-run.test.ts.
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clause, operationKeys, type OperationKey } from '../../specs/index.ts';
import { matrix } from '../../specs/matrix/index.ts';
import { expectNoSecret, reports, SEED, targetFileFor } from './support/end-to-end.ts';
import { junitProblems } from './support/junit-schema.ts';
import { resultsOf, run, startMockProgram, type Finished, type Started } from './support/programs.ts';

const work = mkdtempSync(join(tmpdir(), 'conformance-e2e-failures-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
/** A hand-started mock's rate limit: room for a run, refilled slower than any machine sends. */
const MOCK_RATE = ['--rate-limit', '1200/10'];
/** What the suite may spend to exhaust that bucket (two buckets and a few more). */
const EXHAUST = ['--exhaustion-max', '2500'];
/** The rows alone, not their twins beside the less common and the open forms: the plan stays within the default budget. */
const WITHOUT_TWINS = ['--grep-invert', '(beside '];

describe('npm start against a mock with a gating fault and an observed fault', () => {
  let mock: Started;
  let finished: Finished;
  const out = join(work, 'faulty');
  const summaryFile = join(work, 'step-summary.md');
  beforeAll(async () => {
    const keyFile = join(work, 'keys', 'faulty.pem');
    mock = await startMockProgram([
      '--port',
      '0',
      '--signing-key',
      keyFile,
      ...MOCK_RATE,
      '--fault',
      'redeliver-200-instead-of-202',
      '--fault',
      'vault-404-generic-message',
    ]);
    const target = targetFileFor(work, mock.url, keyFile, 'faulty.yaml');
    writeFileSync(summaryFile, '');
    finished = await run(
      'cli/conformance.ts',
      ['--target-file', target.path, '--seed', SEED, '--operation', 'redeliver,vault', ...EXHAUST, ...WITHOUT_TWINS, '--out', out],
      {
        ...target.env,
        GITHUB_ACTIONS: 'true',
        GITHUB_STEP_SUMMARY: summaryFile,
      },
    );
  }, 180_000);
  afterAll(() => mock?.stop());

  it('exits 1 and says FAIL', () => {
    expect(finished.code).toBe(1);
    expect(finished.stdout).toContain('RESULT: FAIL');
  });

  it('prints the clause, expected, actual, a body excerpt and a replay line', () => {
    expect(finished.stdout).toContain('FAIL [§4.1 redeliver.success.202] redelivery answers 202');
    expect(finished.stdout).toContain('expected: status 202');
    expect(finished.stdout).toContain('actual:   status 200');
    expect(finished.stdout).toMatch(/response: 200 application\/json/);
    expect(finished.stdout).toMatch(
      /replay: {3}curl -sS -i -X POST 'http:\/\/127\.0\.0\.1:\d+\/api\/v2\/event-streams\/est_\w+\/redeliver\/evt_\w+'.* -H "authorization: Bearer \$TOKEN"/,
    );
  });

  it('counts the gating failures in junit.xml, each with a one-line message, and shows the observed one in junit-observed.xml', () => {
    const [junit, observed] = reports(out);
    expect(junitProblems(junit!)).toEqual([]);
    expect(junitProblems(observed!)).toEqual([]);
    // The redelivery answered 200, and so did the same redelivery sent again (202 or 409 expected).
    // Five redeliveries answered 200: the valid one, the one that may meet 409, a failed event of
    // another stream through its own stream (suites/redeliver/other-stream.test.ts), the failed
    // event right after its stream refused another, and right after its redelivery was refused 401
    // and 403 (suites/redeliver/conflict.test.ts).
    expect(junit).toMatch(/<testsuites [^>]* failures="5"/);
    expect(junit).toContain(
      '<failure message="[§4.1 redeliver.success.202] expected status 202; actual status 200" type="clause redeliver.success.202">',
    );
    expect(junit).toContain(
      '<failure message="[§4.1 redeliver.success.202] expected status 202 or 409; actual status 200" type="clause redeliver.success.202">',
    );
    expect(junit).toContain('file="suites/operations/answer.test.ts"');
    expect(junit).toContain('file="suites/redeliver/success.test.ts"');
    expect(junit).toContain('file="suites/redeliver/other-stream.test.ts"');
    expect(junit).toContain('file="suites/redeliver/conflict.test.ts"');
    expect(observed).toMatch(
      /<failure message="\[§7 errors\.404\.vault\] expected status 404, message &quot;Connection not found&quot;, no errorCode \(as recorded\); actual status 404, message &quot;Not Found&quot;"/,
    );
  });

  it('annotates the gating failure for GitHub and writes the step summary', () => {
    expect(finished.stdout).toMatch(
      /^::error file=suites\/operations\/answer\.test\.ts,line=\d+,title=conformance%3A redeliver\.success\.202::\[§4\.1 redeliver\.success\.202\] expected status 202; actual status 200$/m,
    );
    expect(finished.stdout).not.toMatch(/^::error .*errors\.404\.vault/m);
    expect(readFileSync(summaryFile, 'utf8')).toContain('Result: **FAIL**');
  });

  it('keeps the secrets out of the failure output', () => {
    expectNoSecret(finished.stdout, finished.stderr, ...reports(out), readFileSync(summaryFile, 'utf8'));
  });
});

describe('an observed-level failure', () => {
  let mock: Started;
  let target: { path: string; env: Record<string, string> };
  beforeAll(async () => {
    const keyFile = join(work, 'keys', 'observed.pem');
    mock = await startMockProgram(['--port', '0', '--signing-key', keyFile, ...MOCK_RATE, '--fault', 'ticket-200-instead-of-201']);
    target = targetFileFor(work, mock.url, keyFile, 'observed.yaml');
  }, 60_000);
  afterAll(() => mock?.stop());

  it('is reported but does not fail the run without --strict', async () => {
    const out = join(work, 'observed-lenient');
    const finished = await run(
      'cli/conformance.ts',
      ['--target-file', target.path, '--grep', 'ticket creation answers 201', '--out', out],
      target.env,
    );
    expect(finished.stdout).toContain('FAIL (observed, not gating) [§4.4 sso-ticket.success.status] ticket creation answers 201');
    // --grep leaves the other gating clauses unverified: never PASS.
    expect(finished.code).toBe(4);
    expect(readFileSync(join(out, 'junit.xml'), 'utf8')).toMatch(/<testsuites [^>]* failures="0"/);
    expect(readFileSync(join(out, 'junit-observed.xml'), 'utf8')).toMatch(/<testsuites [^>]* failures="1"/);
  }, 90_000);

  it('fails the run with --strict', async () => {
    const out = join(work, 'observed-strict');
    const finished = await run(
      'cli/conformance.ts',
      ['--target-file', target.path, '--grep', 'ticket creation answers 201', '--strict', '--out', out],
      target.env,
    );
    expect(finished.code).toBe(1);
    expect(readFileSync(join(out, 'junit.xml'), 'utf8')).toMatch(/<testsuites [^>]* failures="1"/);
  }, 90_000);

  it('stays green as a known failure of a baseline, and says so', async () => {
    const out = join(work, 'observed-known');
    const baseline = join(work, 'baseline.yaml');
    writeFileSync(
      baseline,
      stringify([
        { clause: 'sso-ticket.success.status', reason: 'staging answers 200 until TICKET-1 ships' },
        { clause: 'vault.scope', reason: 'fixed already' },
      ]),
    );
    const finished = await run(
      'cli/conformance.ts',
      ['--target-file', target.path, '--grep', 'ticket creation answers 201', '--strict', '--baseline', baseline, '--out', out],
      target.env,
    );
    expect(finished.stdout).toContain('FAIL (known: staging answers 200 until TICKET-1 ships) [§4.4 sso-ticket.success.status]');
    expect(finished.code).toBe(4);
    expect(readFileSync(join(out, 'junit.xml'), 'utf8')).toMatch(/<testsuites [^>]* failures="0"/);
  }, 90_000);
});

describe('a token endpoint and a JWKS that answer what is not a token or a key set', () => {
  let mock: Started;
  let target: { path: string; env: Record<string, string> };
  beforeAll(async () => {
    const keyFile = join(work, 'keys', 'not-a-token.pem');
    mock = await startMockProgram([
      ...['--port', '0', '--signing-key', keyFile, ...MOCK_RATE],
      ...['--fault', 'access-token-json-encoded-twice', '--fault', 'jwks-answered-as-its-only-key'],
    ]);
    target = targetFileFor(work, mock.url, keyFile, 'not-a-token.yaml');
  }, 60_000);
  afterAll(() => mock?.stop());

  // A token that can travel in a header is sent as issued, not a stop of the run (INCOMPLETE): the
  // answer breaks the clauses it breaks, and a gate reads FAIL.
  it('fail the token endpoint clause (exit 1) and the JWKS clause, rather than stopping the run', async () => {
    const out = join(work, 'not-a-token');
    const finished = await run('cli/conformance.ts', ['--target-file', target.path, '--grep', '[§5 token.', '--out', out], target.env);
    expect(finished.code).toBe(1);
    expect(finished.stdout).toContain('FAIL [§5 token.endpoint] the token endpoint issues a JWT');
    expect(finished.stdout).toContain('FAIL (observed, not gating) [§5 token.observed.jwks] the published JWKS verifies an issued token');
    expect(finished.stdout).toContain('not a JWKS');
  }, 90_000);
});

describe('npm start with a role missing from the target file', () => {
  let mock: Started;
  let finished: Finished;
  const out = join(work, 'no-role');
  beforeAll(async () => {
    const keyFile = join(work, 'keys', 'no-role.pem');
    mock = await startMockProgram(['--port', '0', '--signing-key', keyFile, ...MOCK_RATE]);
    const target = targetFileFor(work, mock.url, keyFile, 'no-role.yaml', (t) => delete t.roles.non_global);
    finished = await run(
      'cli/conformance.ts',
      ['--target-file', target.path, '--operation', 'redeliver', ...EXHAUST, '--out', out],
      target.env,
    );
  }, 120_000);
  afterAll(() => mock?.stop());

  it('is INCOMPLETE, naming the clauses of that role and the missing field, never PASS', () => {
    expect(finished.code).toBe(4);
    expect(finished.stdout).toContain('RESULT: INCOMPLETE');
    expect(finished.stdout).toContain(
      'redeliver.global-client: [config] role non_global is not configured (roles.non_global in the target file)',
    );
    const junit = readFileSync(join(out, 'junit.xml'), 'utf8');
    const inJunit = junit.match(
      /<skipped message="\[config\] role non_global is not configured \(roles\.non_global in the target file\)"\/>/g,
    )?.length;
    // Every contract test skipped for the role is in JUnit with that reason: the matrix's rows that
    // need it, and the suites' tests that do (the global-client rule across operations).
    const skipped = resultsOf(out).tests.filter(
      (t) => t.level === 'contract' && t.skip?.reason.startsWith('role non_global is not configured'),
    );
    expect(inJunit).toBe(skipped.length);
    expect(inJunit).toBeGreaterThanOrEqual(contractChecksNeedingRole('redeliver', 'non_global'));
    expect(readFileSync(join(out, 'summary.md'), 'utf8')).toMatch(
      /\| `redeliver.global-client` \| \[config\] role non_global is not configured/,
    );
  });
});

/** The contract-level tests of an operation's matrix rows that need a role: each is skipped without it. */
function contractChecksNeedingRole(op: OperationKey, role: string): number {
  return matrix()
    .operations[op].filter((row) => (row.variant.needs ?? []).some((need) => 'role' in need && need.role === role))
    .flatMap((row) => ('checks' in row.expectation ? row.expectation.checks : []))
    .filter((check) => clause(check.clause).level === 'contract').length;
}

describe('npm start against a target that misbehaves', () => {
  // Tokens are issued and the runner's first read (its probe) is answered; then every vault read
  // hangs, redelivery resets the connection and ticket creation answers bytes that are not HTTP.
  const sockets = new Set<Socket>();
  let vaultReads = 0;
  const server = createServer((req, res) => {
    if (req.url?.startsWith('/oauth/token')) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ access_token: 'opaque-token-of-a-broken-target', token_type: 'Bearer', expires_in: 3600, scope: '' }));
    } else if (req.url?.includes('/flows/vault/')) {
      vaultReads += 1;
      if (vaultReads === 1) res.end('{}');
      // Every later read never answers.
    } else if (req.url?.includes('/redeliver/')) {
      req.socket.destroy();
    } else {
      req.socket.end('\u0000garbage that is not HTTP\r\n\r\n');
    }
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  let finished: Finished;
  let wallMs: number;
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const target = targetFileFor(work, url, undefined, 'broken.yaml', (t) => {
      t.test_double = true;
    });
    const started = Date.now();
    finished = await run(
      'cli/conformance.ts',
      ['--target-file', target.path, '--request-timeout', '200', '--run-timeout', '30', '--out', join(work, 'broken')],
      target.env,
    );
    wallMs = Date.now() - started;
  }, 120_000);
  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  });

  it('fails with the reason, within the run bound', () => {
    expect(wallMs).toBeLessThan(60_000);
    expect(finished.code).toBe(1);
    expect(finished.stdout).toMatch(/GET \/api\/v2\/flows\/vault\/connections\/\S+: the target did not answer within 200 ms/);
    expect(finished.stdout).toMatch(/POST \/api\/v2\/event-streams\/\S+: the target closed the connection without an answer/);
    expect(finished.stdout).toMatch(
      /POST \/api\/v2\/self-service-profiles\/\S+: (the target answered with something that is not HTTP|the target closed the connection)/,
    );
  });
});

describe('npm start refuses what it cannot run, and fails closed', () => {
  it('names a bad option and exits 2 without a stack trace', async () => {
    const finished = await run('cli/conformance.ts', ['--max-requests', 'many']);
    expect(finished.code).toBe(2);
    expect(finished.stderr.trim()).toBe('error: --max-requests needs a whole number from 1 to 1000000, got "many" (see --help)');
  });

  it('names an operation it does not know and exits 2, listing those it does', async () => {
    const finished = await run('cli/conformance.ts', ['--operation', 'vault,users', '--out', join(work, 'bad-operation')]);
    expect(finished.code).toBe(2);
    expect(finished.stderr.trim()).toBe(`error: --operation users is not one of ${[...operationKeys, 'token'].join(', ')}`);
  });

  it('names a bad target file and exits 2', async () => {
    const path = join(work, 'broken-target.yaml');
    writeFileSync(path, 'base_url: 12\n');
    const finished = await run('cli/conformance.ts', ['--target-file', path, '--out', join(work, 'bad-target')]);
    expect(finished.code).toBe(2);
    expect(finished.stderr).toMatch(/^error: target file .*broken-target\.yaml: /);
    expect(finished.stderr).not.toMatch(/\n\s+at /);
  });

  it('says the target cannot be reached and exits 3', async () => {
    const target = targetFileFor(work, 'http://127.0.0.1:9', undefined, 'unreachable.yaml');
    const finished = await run(
      'cli/conformance.ts',
      ['--target-file', target.path, '--request-timeout', '2000', '--out', join(work, 'unreachable')],
      target.env,
    );
    expect(finished.code).toBe(3);
    expect(finished.stderr).toMatch(/^error: cannot run against http:\/\/127\.0\.0\.1:9\/api\/v2: .*cannot be reached \(ECONNREFUSED\)/);
  });

  it('refuses a --grep that selects no test, as a usage error', async () => {
    const finished = await run('cli/conformance.ts', ['--grep', 'no test has this in its title', '--out', join(work, 'grep-none')]);
    expect(finished.code).toBe(2);
    expect(finished.stderr.trim()).toBe('error: --grep "no test has this in its title" selects no test');
  });

  it('checks --out before any request: exit 3 with the path and the reason', async () => {
    const file = join(work, 'a-file');
    writeFileSync(file, '');
    const onFile = await run('cli/conformance.ts', ['--out', join(file, 'reports')]);
    expect(onFile.code).toBe(3);
    expect(onFile.stderr.trim()).toBe(`error: cannot write reports to ${join(file, 'reports')}: ENOTDIR`);
    // Root writes through permissions; anyone else is refused a directory without write permission.
    if (process.getuid?.() !== 0) {
      const locked = join(work, 'locked');
      mkdirSync(locked);
      chmodSync(locked, 0o500);
      const finished = await run('cli/conformance.ts', ['--out', join(locked, 'reports')]);
      chmodSync(locked, 0o700);
      expect(finished.code).toBe(3);
      expect(finished.stderr).toMatch(/^error: cannot write reports to .*locked\/reports: EACCES/);
    }
  });

  it("removes the previous run's reports before it starts, so a failed run leaves no old verdict", async () => {
    const out = join(work, 'stale');
    mkdirSync(out, { recursive: true });
    for (const file of ['junit.xml', 'summary.md', 'results.json']) writeFileSync(join(out, file), 'the previous run: PASS');
    const target = targetFileFor(work, 'http://127.0.0.1:9', undefined, 'stale.yaml');
    const finished = await run('cli/conformance.ts', ['--target-file', target.path, '--request-timeout', '1000', '--out', out], target.env);
    expect(finished.code).toBe(3);
    // The reports are this run's, saying it stopped: none is the earlier run's.
    for (const file of ['junit.xml', 'summary.md', 'results.json'])
      expect(readFileSync(join(out, file), 'utf8')).not.toContain('the previous run');
    expect(resultsOf(out).info.stopped?.cause).toBe('target');
  });

  it('prints its help', async () => {
    const finished = await run('cli/conformance.ts', ['--help']);
    expect(finished.code).toBe(0);
    expect(finished.stdout).toContain('Usage: npm start -- [options]');
  });
});
