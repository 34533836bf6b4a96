// End to end, `npm start` against targets nobody on the team would write (the odd target of
// support/odd-target.ts) and with local input that is wrong in ways a user finds first. Each case
// ends with its own exit code, verdict and message, blaming the right party: the target broke a
// clause (1), the target could not be tested as asked (3, reports written), a clause not verified
// (4), the local input (2, nothing sent); never a crash, a hang or a bare exit 1.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { junitProblems } from './support/junit-schema.ts';
import { nestedArrays, startOddTarget, TERMINAL_TRICKS, type OddTarget, type OddTargetOptions } from './support/odd-target.ts';
import { resultsOf, run, writeTargetFile, type Finished } from './support/programs.ts';

const work = mkdtempSync(join(tmpdir(), 'odd-targets-e2e-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The response cap of the harness (harness/http.ts). */
const BODY_CAP = 1024 * 1024;
/** What a terminal acts on: C0 controls but tab and line feed, DEL, C1 controls, bidi overrides. */
// eslint-disable-next-line no-control-regex
const ACTIVE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

interface Ran {
  finished: Finished;
  out: string;
  target: OddTarget;
}

let runs = 0;
/** One run against an odd target: as a test double (every test that can run does), or as someone's tenant. */
async function runAgainst(
  options: OddTargetOptions,
  args: string[] = [],
  file: { asTenant?: boolean; change?: (t: Record<string, any>) => void } = {},
  env: NodeJS.ProcessEnv = {},
): Promise<Ran> {
  runs += 1;
  const target = await startOddTarget(options);
  const out = join(work, `out-${runs}`);
  try {
    const written = writeTargetFile({
      url: target.url,
      dir: work,
      name: `odd-${runs}.yaml`,
      ...(file.asTenant ? { asTenant: true } : {}),
      change: (t) => {
        if (!file.asTenant) t.test_double = true;
        file.change?.(t);
      },
    });
    const finished = await run('cli/conformance.ts', ['--target-file', written.path, '--out', out, ...args], { ...written.env, ...env });
    return { finished, out, target };
  } finally {
    await target.stop();
  }
}

function expectReportsOf(out: string, verdict: string): void {
  expect(resultsOf(out).verdict).toBe(verdict);
  expect(junitProblems(readFileSync(join(out, 'junit.xml'), 'utf8'))).toEqual([]);
  expect(readFileSync(join(out, 'summary.md'), 'utf8')).toContain(`Result: **${verdict}**`);
}

describe('a token endpoint the suite cannot use stops the run: exit 3, the reason said from the answer, reports written', () => {
  it('a server with no routes (404 everywhere)', async () => {
    const { finished, out, target } = await runAgainst({ token: { kind: 'absent' }, operations: { kind: 'absent' } }, [], {
      asTenant: true,
    });
    expect(finished.code).toBe(3);
    expect(finished.stderr.trim()).toBe(
      `error: cannot run against ${target.url}/api/v2: the token endpoint (POST ${target.url}/oauth/token/) answered 404: there is no token endpoint there; check auth_url in the target file (the suite asks {auth_url}/oauth/token/)`,
    );
    expect(finished.stdout).toContain('The run stopped (the target could not be tested as asked)');
    expect(finished.stdout).toContain('RESULT: INCOMPLETE');
    expectReportsOf(out, 'INCOMPLETE');
    expect(resultsOf(out).info.stopped?.cause).toBe('target');
    expect(target.requests).toMatchObject({ token: 1, operations: 0 });
  }, 60_000);

  it('a 200 without a token', async () => {
    const { finished, out } = await runAgainst({ token: { kind: 'no-token' } }, [], { asTenant: true });
    expect(finished.code).toBe(3);
    expect(finished.stderr).toMatch(/answered 200 without an access_token \(body: \{"token_type":"Bearer","expires_in":86400\}\)/);
    expectReportsOf(out, 'INCOMPLETE');
  }, 60_000);

  it('a redirect, which it does not follow', async () => {
    const location = 'https://login.example.invalid/oauth/token/';
    const { finished, out } = await runAgainst({ token: { kind: 'redirect', location } }, [], { asTenant: true });
    expect(finished.code).toBe(3);
    expect(finished.stderr).toContain(`answered 302, a redirect to "${location}"; the suite follows no redirect of the token endpoint`);
    expectReportsOf(out, 'INCOMPLETE');
  }, 60_000);

  it('credentials refused, with escape codes in the error, shown escaped', async () => {
    const body = JSON.stringify({ error: `access_denied${TERMINAL_TRICKS}` });
    const { finished } = await runAgainst({ token: { kind: 'fixed', status: 401, contentType: 'application/json', body } }, [], {
      asTenant: true,
    });
    expect(finished.code).toBe(3);
    expect(finished.stderr).toContain('refused the credentials of role global (status 401, error "access_denied\\u001b[2J');
    expect(finished.stderr).toContain('check roles.global');
    expect(ACTIVE.test(finished.stderr + finished.stdout)).toBe(false);
  }, 60_000);
});

describe('answers a terminal would act on', () => {
  let ran: Ran;
  beforeAll(async () => {
    ran = await runAgainst(
      {
        operations: {
          kind: 'fixed',
          status: 200,
          contentType: 'text/plain; x=\u009b2J',
          body: `{"message": "${TERMINAL_TRICKS}"}\n${TERMINAL_TRICKS}`,
        },
      },
      ['--operation', 'vault'],
    );
  }, 120_000);

  it('fail their clauses (exit 1), and the one verdict line is the run’s own', () => {
    expect(ran.finished.code).toBe(1);
    expect(ran.finished.stdout.split('\n').filter((line) => line.startsWith('RESULT:'))).toEqual(['RESULT: FAIL']);
    expect(resultsOf(ran.out).tests.filter((t) => t.state === 'error')).toEqual([]);
  });

  it('reach the console, summary.md and JUnit with their escape sequences and control characters escaped', () => {
    const texts = [
      ran.finished.stdout,
      ...['summary.md', 'junit.xml', 'junit-observed.xml', 'report.html'].map((f) => readFileSync(join(ran.out, f), 'utf8')),
    ];
    for (const text of texts) expect(ACTIVE.test(text)).toBe(false);
    expect(ran.finished.stdout).toContain('\\u001b[2J\\u001b]0;owned\\u0007');
    expect(ran.finished.stdout).toContain('text/plain; x=\\u009b2J');
    // The carriage return before the fake verdict is flattened with the body's other whitespace.
    expect(readFileSync(join(ran.out, 'summary.md'), 'utf8')).toContain('\\u001b[2J\\u001b]0;owned\\u0007');
    expect(readFileSync(join(ran.out, 'junit.xml'), 'utf8')).toContain('\\u009b31m RESULT: PASS');
  });
});

// The vault record's tests: ten tests reading three shared reads, kept for the run, each answer
// checked field by field and against the record's schema.
describe('answers as large as the response cap, made of nested arrays', () => {
  it('are judged and reported like any others (exit 1, no suite error), the worker within its bounded heap', async () => {
    const body = nestedArrays(BODY_CAP);
    const { finished, out } = await runAgainst({ operations: { kind: 'fixed', status: 200, contentType: 'application/json', body } }, [
      '--grep',
      'vault.record',
    ]);
    expect(finished.code).toBe(1);
    expect(finished.stdout).toContain('RESULT: FAIL');
    expectReportsOf(out, 'FAIL');
    expect(resultsOf(out).tests.filter((t) => t.state === 'error')).toEqual([]);
    expect(finished.stdout).toMatch(/response: 200 application\/json \[{300}… \(1048576 chars\)/);
  }, 240_000);

  it('stop the run with exit 3, the reports and the reason, when the test worker runs out of memory anyway', async () => {
    const body = nestedArrays(BODY_CAP);
    const { finished, out } = await runAgainst(
      { operations: { kind: 'fixed', status: 200, contentType: 'application/json', body } },
      ['--grep', 'vault.record'],
      {},
      { CONFORMANCE_TEST_WORKER_HEAP_MB: '40' },
    );
    expect(finished.code).toBe(3);
    expect(finished.stderr.trim()).toBe(
      "error: the test worker ran out of memory (its heap is bounded at 40 MB): the target's answers took more than the suite can hold, and the tests after that point did not run",
    );
    expect(finished.stdout).toContain('RESULT: INCOMPLETE');
    expectReportsOf(out, 'INCOMPLETE');
    expect(resultsOf(out).info.stopped?.cause).toBe('target');
  }, 120_000);
});

describe('the run’s time bound', () => {
  it('skips for time the tests it cuts, giving every request it sends its whole timeout', async () => {
    const { finished, out } = await runAgainst({ operationDelayMs: 300 }, [
      '--operation',
      'vault',
      '--request-timeout',
      '1000',
      '--run-timeout',
      '4',
    ]);
    expect(finished.stdout).not.toMatch(/did not answer within \d+ ms/);
    const skippedForTime = resultsOf(out).tests.filter((t) => t.skip?.category === 'time');
    expect(skippedForTime.length).toBeGreaterThan(0);
    expect(skippedForTime[0]!.skip!.reason).toMatch(
      /less than a request's timeout \(1000 ms\); no further request is sent|time bound is reached/,
    );
  }, 60_000);
});

describe('a Reset past what a date can hold, on an empty bucket', () => {
  it('is named in the console and summary as not used for pacing, and the run goes on at the safe rate, not a crash', async () => {
    const { finished, out } = await runAgainst(
      {
        rateLimitHeaders: () => ({ 'x-ratelimit-limit': '10', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '99999999999999999999' }),
      },
      ['--operation', 'vault', '--run-timeout', '25', '--request-timeout', '2000'],
    );
    expect(finished.stderr).not.toContain('Invalid time value');
    const named = 'not used for pacing: X-RateLimit-Reset "99999999999999999999" is not a whole number';
    expect(finished.stdout).toContain(`rate limit: ${named}`);
    expect(readFileSync(join(out, 'summary.md'), 'utf8')).toContain(named);
    // Requests went out (paced at the safe rate, not slept until a Reset no date holds), and the run
    // ended with a verdict: the odd target's fixed vault record fails its clauses (exit 1), or the
    // bound cut the run (exit 4).
    expect(resultsOf(out).info.preflightRequests).toBeGreaterThan(0);
    expect(resultsOf(out).tests.filter((t) => t.state !== 'skipped').length).toBeGreaterThan(0);
    expect([1, 4]).toContain(finished.code);
  }, 60_000);
});

describe('local input that cannot be used: exit 2 (3 for --out), at once, nothing sent, nothing secret echoed', () => {
  it('a base_url or auth_url with credentials, named without the password', async () => {
    const password = 'hunter2-very-secret';
    for (const field of ['base_url', 'auth_url']) {
      const { finished, target } = await runAgainst({}, [], {
        change: (t) => (t[field] = String(t[field]).replace('http://', `http://admin:${password}@`)),
      });
      expect(finished.code).toBe(2);
      expect(finished.stderr).toMatch(new RegExp(`^error: target file .*: ${field} must not hold credentials \\(user:password@\\)`));
      expect(finished.stderr + finished.stdout).not.toContain(password);
      expect(target.requests).toEqual({ token: 0, jwks: 0, operations: 0, other: 0 });
    }
  }, 60_000);

  it('a base_url with a query string', async () => {
    const { finished } = await runAgainst({}, [], { change: (t) => (t.base_url = `${String(t.base_url)}?tenant=1`) });
    expect(finished.code).toBe(2);
    expect(finished.stderr).toMatch(/base_url must not have a query or a fragment/);
  }, 60_000);

  it('a target file or baseline that is a device, or larger than such a file may be', async () => {
    const started = Date.now();
    const device = await run('cli/conformance.ts', ['--target-file', '/dev/zero', '--out', join(work, 'device')]);
    expect(device.code).toBe(2);
    expect(device.stderr.trim()).toBe('error: target file /dev/zero: is not a regular file');
    const baseline = await run('cli/conformance.ts', ['--baseline', '/dev/zero', '--out', join(work, 'device-baseline')]);
    expect(baseline.stderr.trim()).toBe('error: baseline /dev/zero: is not a regular file');
    const large = join(work, 'large.yaml');
    writeFileSync(large, `# ${'x'.repeat(2 * 1024 * 1024)}\n`);
    const big = await run('cli/conformance.ts', ['--target-file', large, '--out', join(work, 'large')]);
    expect(big.code).toBe(2);
    expect(big.stderr).toMatch(/large\.yaml: is larger than the 1024 KiB such a file may have/);
    expect(Date.now() - started).toBeLessThan(60_000);
  }, 90_000);

  it('an --out where no directory can be made exits 3 at once', async () => {
    const finished = await run('cli/conformance.ts', ['--out', '/proc/conformance-reports'], {}, 30_000);
    expect(finished.code).toBe(3);
    expect(finished.stderr.trim()).toBe('error: cannot write reports to /proc/conformance-reports: ENOENT');
  }, 40_000);

  it('a negative number, with the range the option accepts', async () => {
    const finished = await run('cli/conformance.ts', ['--num-runs', '-1']);
    expect(finished.code).toBe(2);
    expect(finished.stderr.trim()).toBe('error: --num-runs needs a whole number from 0 to 10000, got "-1" (see --help)');
  });
});
