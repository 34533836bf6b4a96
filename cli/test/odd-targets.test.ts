// End to end, `npm start` against targets nobody on the team would write (the odd target of
// support/odd-target.ts) and with local input that is wrong in ways a user finds first. Each case
// ends with its own exit code, verdict and message, blaming the right party: the target broke a
// clause (1), the target could not be tested as asked (3, reports written), a clause not verified
// (4), the local input (2, nothing sent); never a crash, a hang or a bare exit 1. Answers as large
// as the response cap, the time bound and a Reset past what a date holds: odd-targets-bounds.test.ts.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectReportsOf, oddTargetRuns, type Ran } from './support/end-to-end.ts';
import { TERMINAL_TRICKS } from './support/odd-target.ts';
import { resultsOf, run } from './support/programs.ts';

const work = mkdtempSync(join(tmpdir(), 'odd-targets-e2e-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const runAgainst = oddTargetRuns(work);

/** What a terminal acts on: C0 controls but tab and line feed, DEL, C1 controls, bidi overrides. */
// eslint-disable-next-line no-control-regex
const ACTIVE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

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

  // A redirect of the spec's own token URL to the same endpoint without its slash breaks
  // token.endpoint (section 5, rule 3): the run still stops, but a gate reads FAIL, not INCOMPLETE.
  it("a redirect of the spec's token URL to the same endpoint without its slash fails token.endpoint (exit 1)", async () => {
    const { finished, out } = await runAgainst({ token: { kind: 'redirect', status: 308, location: '/oauth/token' } }, [], {
      asTenant: true,
    });
    expect(finished.code).toBe(1);
    expect(finished.stdout).toContain('RESULT: FAIL');
    expect(finished.stdout).toContain('The run stopped (the target could not be tested as asked)');
    expect(finished.stderr).toContain('the target breaks token.endpoint');
    expectReportsOf(out, 'FAIL');
    const results = resultsOf(out);
    expect(results.tests.map((t) => [t.clause, t.state, t.gating])).toEqual([['token.endpoint', 'failed', true]]);
    expect(results.tests[0]!.failure).toContain('expected 200 with an access_token; actual 308, a redirect to "/oauth/token"');
    expect(readFileSync(join(out, 'junit.xml'), 'utf8')).toMatch(/<testsuites [^>]* failures="1"/);
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
