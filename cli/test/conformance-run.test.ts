// End to end: `npm start` as a user runs it, against the embedded mock, against a mock started
// by hand, against a faulty mock and against nothing; and the secrets of the target file never
// appear in what it prints or writes.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outcomes, root, run, startMockProgram, type Finished, type Started } from './support.ts';

const SEED = '20261122';
const work = mkdtempSync(join(tmpdir(), 'conformance-e2e-'));
const mockTarget = parse(readFileSync(join(root, 'targets', 'mock.yaml'), 'utf8')) as { roles: Record<string, { client_id: string; client_secret?: string; client_secret_env?: string }> } & Record<string, unknown>;
delete mockTarget.signing_key_file;
const secrets = Object.values(mockTarget.roles).map((role) => role.client_secret!);

/** A target file for a mock at `url`, with every secret moved to an environment variable. */
function targetFileFor(url: string, keyFile: string | undefined, name: string): { path: string; env: Record<string, string> } {
  const env: Record<string, string> = {};
  const roles = Object.fromEntries(Object.entries(mockTarget.roles).map(([role, credentials]) => {
    const variable = `E2E_SECRET_${role.toUpperCase()}`;
    env[variable] = credentials.client_secret!;
    return [role, { client_id: credentials.client_id, client_secret_env: variable }];
  }));
  const path = join(work, name);
  writeFileSync(path, stringify({ ...mockTarget, base_url: `${url}/api/v2`, auth_url: url, ...(keyFile ? { signing_key_file: keyFile } : {}), roles }));
  return { path, env };
}

function expectNoSecret(...texts: string[]): void {
  for (const text of texts) {
    for (const secret of secrets) expect(text.includes(secret), `a client secret appears in the output`).toBe(false);
    expect(/eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\./.test(text), 'a token appears in the output').toBe(false);
  }
}

describe('npm start against the embedded mock', () => {
  const out = join(work, 'embedded');
  let finished: Finished;
  beforeAll(async () => {
    finished = await run('cli/conformance.ts', ['--seed', SEED, '--num-runs', '5', '--out', out]);
  }, 120_000);

  it('exits 0 and says PASS', () => {
    expect(finished.stderr).toBe('');
    expect(finished.code).toBe(0);
    expect(finished.stdout).toContain('RESULT: PASS');
  });

  it('prints the seed, the requests used and the wall time', () => {
    expect(finished.stdout).toContain(`seed ${SEED}`);
    expect(finished.stdout).toMatch(/requests: \d+ used/);
    expect(finished.stdout).toMatch(/wall time of the whole run: \d+\.\d s/);
  });

  it('writes junit.xml with every test case tagged by clause and level', () => {
    const junit = readFileSync(join(out, 'junit.xml'), 'utf8');
    const cases = junit.match(/<testcase /g) ?? [];
    expect(cases.length).toBeGreaterThan(150);
    expect(junit.match(/<property name="clause" value="[a-z][\w.-]+"\/>/g)?.length).toBe(cases.length);
    expect(junit).toMatch(/<testsuites [^>]* failures="0"/);
  });

  it('writes summary.md with a row per clause', () => {
    const summary = readFileSync(join(out, 'summary.md'), 'utf8');
    expect(summary).toContain('Result: **PASS**');
    expect(summary).toMatch(/\| `redeliver.errors.409.state` \| 7 \| contract \| 1\/1 \| ✅ pass \|/);
    expect(summary).toContain('0 untested');
  });

  it('keeps the secrets of the target out of its output and reports', () => {
    expectNoSecret(finished.stdout, finished.stderr, readFileSync(join(out, 'junit.xml'), 'utf8'), readFileSync(join(out, 'summary.md'), 'utf8'));
  });

  describe('and against the same mock started by hand with a target file', () => {
    let mock: Started;
    let byHand: Finished;
    const handOut = join(work, 'by-hand');
    beforeAll(async () => {
      const keyFile = join(work, 'keys', 'mock.pem');
      mock = await startMockProgram(['--port', '0', '--rate-limit', '200/100', '--signing-key', keyFile]);
      const target = targetFileFor(mock.url, keyFile, 'by-hand.yaml');
      byHand = await run('cli/conformance.ts', ['--target-file', target.path, '--seed', SEED, '--num-runs', '5', '--out', handOut], target.env);
    }, 120_000);
    afterAll(() => mock?.stop());

    it('gives the same result for every test', () => {
      expect(byHand.code).toBe(0);
      const embedded = outcomes(readFileSync(join(out, 'junit.xml'), 'utf8'));
      const handStarted = outcomes(readFileSync(join(handOut, 'junit.xml'), 'utf8'));
      expect(handStarted.size).toBe(embedded.size);
      expect([...handStarted.entries()].filter(([name, outcome]) => embedded.get(name) !== outcome)).toEqual([]);
    });

    it('keeps the secrets from the environment out of its output and reports', () => {
      expectNoSecret(byHand.stdout, byHand.stderr, readFileSync(join(handOut, 'junit.xml'), 'utf8'), readFileSync(join(handOut, 'summary.md'), 'utf8'));
    });
  });
});

describe('npm start against a mock with a fault', () => {
  let mock: Started;
  let finished: Finished;
  const out = join(work, 'faulty');
  beforeAll(async () => {
    const keyFile = join(work, 'keys', 'faulty.pem');
    mock = await startMockProgram(['--port', '0', '--rate-limit', '200/100', '--signing-key', keyFile, '--fault', 'redeliver-200-instead-of-202']);
    const target = targetFileFor(mock.url, keyFile, 'faulty.yaml');
    finished = await run('cli/conformance.ts', ['--target-file', target.path, '--seed', SEED, '--num-runs', '5', '--out', out], target.env);
  }, 120_000);
  afterAll(() => mock?.stop());

  it('exits 1 and says FAIL', () => {
    expect(finished.code).toBe(1);
    expect(finished.stdout).toContain('RESULT: FAIL');
  });

  it('prints the clause, expected, actual, a body excerpt and a replay line', () => {
    expect(finished.stdout).toContain('FAIL [§4.1 redeliver.success.202] redelivery of a failed event answers 202');
    expect(finished.stdout).toContain('expected: status 202');
    expect(finished.stdout).toContain('actual:   status 200');
    expect(finished.stdout).toMatch(/response: 200 application\/json/);
    expect(finished.stdout).toMatch(/replay: {3}curl -sS -i -X POST 'http:\/\/127\.0\.0\.1:\d+\/api\/v2\/event-streams\/est_\w+\/redeliver\/evt_\w+'.* -H "authorization: Bearer \$TOKEN"/);
  });

  it('counts the failure in junit.xml', () => {
    const junit = readFileSync(join(out, 'junit.xml'), 'utf8');
    expect(junit).toMatch(/<testsuites [^>]* failures="[1-9]\d*"/);
    expect(junit).toContain('<failure message="[§4.1 redeliver.success.202]');
  });

  it('keeps the secrets out of the failure output', () => {
    expectNoSecret(finished.stdout, finished.stderr, readFileSync(join(out, 'junit.xml'), 'utf8'), readFileSync(join(out, 'summary.md'), 'utf8'));
  });
});

describe('an observed-level failure', () => {
  let mock: Started;
  let target: { path: string; env: Record<string, string> };
  beforeAll(async () => {
    const keyFile = join(work, 'keys', 'observed.pem');
    mock = await startMockProgram(['--port', '0', '--rate-limit', '200/100', '--signing-key', keyFile, '--fault', 'ticket-200-instead-of-201']);
    target = targetFileFor(mock.url, keyFile, 'observed.yaml');
  }, 60_000);
  afterAll(() => mock?.stop());

  it('is reported but does not gate without --strict', async () => {
    const out = join(work, 'observed-lenient');
    const finished = await run('cli/conformance.ts', ['--target-file', target.path, '--grep', 'ticket creation answers 201', '--out', out], target.env);
    expect(finished.code).toBe(0);
    expect(finished.stdout).toContain('FAIL (observed, not gating) [§4.4 sso-ticket.success.status] ticket creation answers 201');
    const junit = readFileSync(join(out, 'junit.xml'), 'utf8');
    expect(junit).toMatch(/<testsuites [^>]* failures="0"/);
    expect(junit).toContain('<property name="outcome" value="failed"/>');
  });

  it('gates with --strict', async () => {
    const out = join(work, 'observed-strict');
    const finished = await run('cli/conformance.ts', ['--target-file', target.path, '--grep', 'ticket creation answers 201', '--strict', '--out', out], target.env);
    expect(finished.code).toBe(1);
    expect(readFileSync(join(out, 'junit.xml'), 'utf8')).toMatch(/<testsuites [^>]* failures="1"/);
  });
});

describe('npm start with a role missing from the target file', () => {
  let mock: Started;
  let finished: Finished;
  const out = join(work, 'no-role');
  beforeAll(async () => {
    const keyFile = join(work, 'keys', 'no-role.pem');
    mock = await startMockProgram(['--port', '0', '--rate-limit', '200/100', '--signing-key', keyFile]);
    const target = targetFileFor(mock.url, keyFile, 'no-role.yaml');
    const description = parse(readFileSync(target.path, 'utf8')) as { roles: Record<string, unknown> };
    delete description.roles.non_global;
    writeFileSync(target.path, stringify(description));
    finished = await run('cli/conformance.ts', ['--target-file', target.path, '--grep', 'not global', '--out', out], target.env);
  }, 120_000);
  afterAll(() => mock?.stop());

  it('reports the tests of that role as skipped with the reason, not as passed', () => {
    expect(finished.code).toBe(0);
    const junit = readFileSync(join(out, 'junit.xml'), 'utf8');
    const skipped = junit.match(/<skipped message="role non_global is not configured \(roles\.non_global in the target file\)"\/>/g) ?? [];
    expect(skipped.length).toBe(3);
    expect(junit).not.toContain('<property name="outcome" value="passed"/>');
    expect(readFileSync(join(out, 'summary.md'), 'utf8')).toMatch(/\| `redeliver.global-client` \| 5 \| contract \| 0\/1 \| ⏭️ skipped \| skipped: role non_global is not configured/);
  });
});

describe('npm start against a target that misbehaves', () => {
  // Tokens are issued; then the vault read hangs, redelivery resets the connection and ticket
  // creation answers bytes that are not HTTP.
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    if (req.url?.startsWith('/oauth/token')) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ access_token: 'opaque-token-of-a-broken-target', token_type: 'Bearer', expires_in: 3600, scope: '' }));
    } else if (req.url?.includes('/flows/vault/')) {
      // Never answers.
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
    const target = targetFileFor(url, undefined, 'broken.yaml');
    const started = Date.now();
    finished = await run('cli/conformance.ts', ['--target-file', target.path, '--request-timeout', '200', '--run-timeout', '20', '--num-runs', '2', '--out', join(work, 'broken')], target.env);
    wallMs = Date.now() - started;
  }, 120_000);
  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  });

  it('fails with the reason, within the run bound', () => {
    expect(finished.code).toBe(1);
    expect(wallMs).toBeLessThan(60_000);
    expect(finished.stdout).toMatch(/GET \/api\/v2\/flows\/vault\/connections\/\S+: the target did not answer within 200 ms/);
    expect(finished.stdout).toMatch(/POST \/api\/v2\/event-streams\/\S+: the target closed the connection without an answer/);
    expect(finished.stdout).toMatch(/POST \/api\/v2\/self-service-profiles\/\S+: the target answered with something that is not HTTP|closed the connection/);
  });
});

describe('npm start refuses what it cannot run', () => {
  it('names a bad option and exits 2 without a stack trace', async () => {
    const finished = await run('cli/conformance.ts', ['--max-requests', 'many']);
    expect(finished.code).toBe(2);
    expect(finished.stderr.trim()).toBe('error: --max-requests needs a positive integer, got "many" (see --help)');
  });

  it('names a bad target file and exits 2', async () => {
    const path = join(work, 'broken.yaml');
    writeFileSync(path, 'base_url: 12\n');
    const finished = await run('cli/conformance.ts', ['--target-file', path]);
    expect(finished.code).toBe(2);
    expect(finished.stderr).toMatch(/^error: target file .*broken\.yaml: /);
    expect(finished.stderr).not.toMatch(/\n\s+at /);
  });

  it('says the target cannot be reached and exits 3', async () => {
    const target = targetFileFor('http://127.0.0.1:9', undefined, 'unreachable.yaml');
    const finished = await run('cli/conformance.ts', ['--target-file', target.path, '--request-timeout', '2000'], target.env);
    expect(finished.code).toBe(3);
    expect(finished.stderr).toMatch(/^error: cannot run against http:\/\/127\.0\.0\.1:9\/api\/v2: .*cannot be reached \(ECONNREFUSED\)/);
  });

  it('prints its help', async () => {
    const finished = await run('cli/conformance.ts', ['--help']);
    expect(finished.code).toBe(0);
    expect(finished.stdout).toContain('Usage: npm start -- [options]');
  });
});

describe('sharded runs', () => {
  const out = join(work, 'sharded');
  let shards: Finished[];
  let merged: Finished;
  beforeAll(async () => {
    shards = [];
    for (const shard of ['1/2', '2/2']) shards.push(await run('cli/conformance.ts', ['--seed', SEED, '--num-runs', '5', '--shard', shard, '--out', out]));
    merged = await run('cli/merge-reports.ts', ['--out', out]);
  }, 180_000);

  it('merge into one JUnit report with every test of a whole run', () => {
    expect(shards.map((s) => s.code)).toEqual([0, 0]);
    expect(merged.code).toBe(0);
    const whole = outcomes(readFileSync(join(work, 'embedded', 'junit.xml'), 'utf8'));
    const parts = outcomes(readFileSync(join(out, 'junit.xml'), 'utf8'));
    expect([...parts.keys()].sort()).toEqual([...whole.keys()].sort());
  });
});
