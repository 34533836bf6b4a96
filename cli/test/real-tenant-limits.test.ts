// End to end, the real-tenant mode (a mock or a server started here, described WITHOUT
// test_double): the budget, the time bound, a target that never rate-limits, one whose headers
// would keep the suite waiting, a token endpoint issuing a token that cannot be a header, and the
// token alternatives of a real tenant, each ending with its own verdict and message.
import { mkdtempSync, readFileSync, writeFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SignJWT, importPKCS8 } from 'jose';
import { parse, stringify } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mockTargetDescription } from '../embedded.ts';
import { resultsOf, root, run, startMockProgram, writeTargetFile, type Finished, type Started } from './support/programs.ts';

const work = mkdtempSync(join(tmpdir(), 'real-tenant-e2e-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const mockTarget = mockTargetDescription() as Record<string, any>;

/** A target file that does not declare a test double: the suite treats it as someone's tenant. */
function tenantFile(url: string, name: string, change?: (t: Record<string, any>) => void): { path: string; env: Record<string, string> } {
  return writeTargetFile({ url, dir: work, name, asTenant: true, ...(change ? { change } : {}) });
}

async function fakeTarget(
  handler: (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => void,
): Promise<{ server: Server; url: string }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

describe('the budget', () => {
  it('keeps the tests that matter most within --max-requests, the rest left out with that reason (INCOMPLETE)', async () => {
    const mock = await startMockProgram(['--port', '0', '--log']);
    try {
      const target = tenantFile(mock.url, 'budget.yaml');
      const out = join(work, 'budget');
      const finished = await run('cli/conformance.ts', ['--target-file', target.path, '--max-requests', '40', '--out', out], target.env);
      expect(finished.code).toBe(4);
      expect(finished.stdout).toMatch(/the plan needs \d+ requests, over --max-requests 40: \d+ tests are left out by priority/);
      expect(mock.requests()).toBeLessThanOrEqual(40);
      const leftOut = resultsOf(out).tests.filter((t) => t.skip?.category === 'budget');
      expect(leftOut.length).toBeGreaterThan(0);
      expect(leftOut[0]!.skip!.reason).toMatch(/left out by --max-requests 40/);
    } finally {
      await mock.stop();
    }
  }, 120_000);

  it('refuses a budget that pays for no test before the first request (exit 2)', async () => {
    const mock = await startMockProgram(['--port', '0', '--log']);
    try {
      const target = tenantFile(mock.url, 'budget-one.yaml');
      const finished = await run(
        'cli/conformance.ts',
        ['--target-file', target.path, '--max-requests', '1', '--out', join(work, 'budget-one')],
        target.env,
      );
      expect(finished.code).toBe(2);
      expect(finished.stderr).toMatch(/^error: --max-requests 1 pays for no test \(the plan needs \d+ requests/);
      expect(mock.requests()).toBe(0);
    } finally {
      await mock.stop();
    }
  }, 60_000);
});

describe('a rate limit that outlasts the time bound', () => {
  let mock: Started;
  let finished: Finished;
  let wallMs: number;
  beforeAll(async () => {
    mock = await startMockProgram(['--port', '0', '--bucket-size', '3', '--refill-per-second', '1']);
    const target = tenantFile(mock.url, 'slow.yaml');
    const started = Date.now();
    finished = await run(
      'cli/conformance.ts',
      ['--target-file', target.path, '--run-timeout', '30', '--out', join(work, 'slow')],
      target.env,
    );
    wallMs = Date.now() - started;
  }, 120_000);
  afterAll(() => mock?.stop());

  it('ends INCOMPLETE within its bound, the tests it could not reach skipped with that reason, none failed', () => {
    expect(finished.code).toBe(4);
    expect(wallMs).toBeLessThan(60_000);
    const results = resultsOf(join(work, 'slow'));
    expect(results.tests.filter((t) => t.state === 'failed')).toEqual([]);
    const stopped = results.tests.filter((t) => t.skip?.category === 'rate-limit' || t.skip?.category === 'time');
    expect(stopped.length).toBeGreaterThan(10);
    expect(results.tests.filter((t) => t.state === 'passed').length).toBeGreaterThan(0);
    expect(finished.stdout).toMatch(
      /\[(rate-limit|time)\] .*(the target's rate limit would keep the suite waiting \d+ s .*past the run's time bound|the run reached its time bound)/,
    );
    expect(results.info.waitedMs).toBeGreaterThan(0);
  });
});

describe('a target that never rate-limits', () => {
  it('fails the 429 clause after one bucket and its refill, not the whole budget', async () => {
    const mock = await startMockProgram([
      '--port',
      '0',
      '--log',
      '--bucket-size',
      '40',
      '--refill-per-second',
      '10',
      '--fault',
      'never-limits',
    ]);
    try {
      const target = tenantFile(mock.url, 'never-limits.yaml', (t) => {
        t.test_double = true;
      });
      const out = join(work, 'never-limits');
      const finished = await run(
        'cli/conformance.ts',
        ['--target-file', target.path, '--grep', '[§7 redeliver.errors.429]', '--out', out],
        target.env,
      );
      expect(finished.code).toBe(1);
      expect(finished.stdout).toMatch(
        /actual: {3}no 429 after (\d+) requests in [\d.]+ s, more than two buckets \(X-RateLimit-Limit 40\), X-RateLimit-Remaining no longer falling; last X-RateLimit-Remaining 40/,
      );
      const sent = Number(/no 429 after (\d+) requests/.exec(finished.stdout)![1]);
      expect(sent).toBeGreaterThanOrEqual(2 * 40);
      expect(sent).toBeLessThan(2 * 40 + 30);
      expect(resultsOf(out).requests).toBeLessThan(120);
    } finally {
      await mock.stop();
    }
  }, 60_000);
});

describe('a target whose headers say nothing is left for an hour', () => {
  it('is INCOMPLETE up front, said as such, not as a time-out', async () => {
    const { server, url } = await fakeTarget((req, res) => {
      if (req.url?.startsWith('/oauth/token')) {
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ access_token: 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln', token_type: 'Bearer', expires_in: 86400 }));
        return;
      }
      const reset = Math.ceil(Date.now() / 1000) + 3600;
      res
        .writeHead(200, {
          'content-type': 'application/json',
          'x-ratelimit-limit': '10',
          'x-ratelimit-remaining': '0',
          'x-ratelimit-reset': String(reset),
        })
        .end('{}');
    });
    try {
      const target = tenantFile(url, 'stuck.yaml');
      const started = Date.now();
      const finished = await run('cli/conformance.ts', ['--target-file', target.path, '--out', join(work, 'stuck')], target.env);
      expect(Date.now() - started).toBeLessThan(20_000);
      expect(finished.code).toBe(4);
      expect(finished.stdout).toMatch(
        /The run stopped \(the target's rate limit\): the target's rate limit would keep the suite waiting 3\d\d\d s \(X-RateLimit-Remaining 0, X-RateLimit-Reset .*\), past the run's time bound of \d+ s/,
      );
      expect(finished.stdout).toContain('RESULT: INCOMPLETE');
    } finally {
      server.close();
    }
  }, 60_000);
});

describe('a token endpoint that issues a token with CR/LF', () => {
  it('is a clear target error within seconds, not a jammed client', async () => {
    const { server, url } = await fakeTarget((_, res) => {
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ access_token: 'abc\r\nX-Injected: yes', token_type: 'Bearer', expires_in: 86400 }));
    });
    try {
      const target = tenantFile(url, 'crlf.yaml');
      const started = Date.now();
      const finished = await run('cli/conformance.ts', ['--target-file', target.path, '--out', join(work, 'crlf')], target.env);
      expect(Date.now() - started).toBeLessThan(20_000);
      expect(finished.code).toBe(3);
      expect(finished.stderr.trim()).toBe(
        `error: cannot run against ${url}/api/v2: the token endpoint issued an access token that cannot be sent in an Authorization header: it holds U+000D, which no header value carries`,
      );
    } finally {
      server.close();
    }
  }, 60_000);
});

describe('token alternatives of a real tenant', () => {
  let mock: Started;
  let other: Started;
  let finished: Finished;
  const out = join(work, 'alternatives');
  beforeAll(async () => {
    const keyFile = join(work, 'alternatives-key.pem');
    mock = await startMockProgram(['--port', '0', '--signing-key', keyFile, '--bucket-size', '60', '--refill-per-second', '30']);
    // A second tenant: another domain, another key.
    const fixtures = parse(readFileSync(join(root, 'mock', 'fixtures', 'default.yaml'), 'utf8')) as Record<string, any>;
    fixtures.tenant.domain = 'other-tenant.example.com';
    const otherFixtures = join(work, 'other-tenant.yaml');
    writeFileSync(otherFixtures, stringify(fixtures));
    other = await startMockProgram(['--port', '0', '--fixtures', otherFixtures]);
    // A token of the tenant captured earlier, expired since: made here with its key.
    const key = await importPKCS8(readFileSync(keyFile, 'utf8'), 'RS256');
    const now = Math.floor(Date.now() / 1000);
    const jwks = (await (await fetch(`${mock.url}/.well-known/jwks.json`)).json()) as { keys: Array<{ kid: string }> };
    const expired = await new SignJWT({
      scope: 'read:flows_vault_connections',
      azp: mockTarget.roles.global.client_id,
      gty: 'client-credentials',
    })
      .setProtectedHeader({ alg: 'RS256', typ: 'JWT', kid: jwks.keys[0]!.kid })
      .setIssuer('https://tenant.example.com/')
      .setAudience('https://tenant.example.com/api/v2/')
      .setSubject(`${mockTarget.roles.global.client_id}@clients`)
      .setIssuedAt(now - 90_000)
      .setExpirationTime(now - 3_600)
      .sign(key);
    const target = tenantFile(mock.url, 'alternatives.yaml', (t) => {
      t.rate_limit = { limit: 60, refill_per_second: 30 };
      t.token_alternatives = {
        expired_token_env: 'CAPTURED_TOKEN',
        other_tenant: {
          auth_url: other.url,
          audience: 'https://other-tenant.example.com/api/v2/',
          client_id: mockTarget.roles.global.client_id,
          client_secret_env: 'OTHER_TENANT_SECRET',
        },
      };
    });
    finished = await run(
      'cli/conformance.ts',
      ['--target-file', target.path, '--grep', 'redelivery answers 401', '--allow-writes', '--out', out],
      {
        ...target.env,
        CAPTURED_TOKEN: expired,
        OTHER_TENANT_SECRET: mockTarget.roles.global.client_secret,
      },
    );
  }, 120_000);
  afterAll(async () => {
    await mock?.stop();
    await other?.stop();
  });

  it('run the expired-token and other-issuer tests without the signing key', () => {
    const tests = resultsOf(out).tests;
    const state = (fragment: string) => tests.find((t) => t.name.endsWith(fragment))?.state;
    expect(state("redelivery answers 401 to a request with the token's expiry (exp) long past (an expired token of the tenant)")).toBe(
      'passed',
    );
    expect(state("redelivery answers 401 to a request with the token's issuer (iss) another tenant's")).toBe('passed');
    expect(tests.find((t) => t.name.includes("the token's not-before time (nbf) 120 seconds from now"))?.skip?.category).toBe(
      'not-applicable',
    );
    expect(finished.stdout).not.toContain('CAPTURED_TOKEN');
  });
});
