// End to end, `npm start` against odd targets (support/odd-target.ts) at the run's bounds: answers
// as large as the response cap made of nested arrays, a run cut by its time bound, and a Reset past
// what a date can hold on an empty bucket. Each ends with its own exit code, verdict and message,
// never a crash or a hang. The other odd targets and local input: odd-targets.test.ts.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { expectReportsOf, oddTargetRuns } from './support/end-to-end.ts';
import { nestedArrays } from './support/odd-target.ts';
import { resultsOf } from './support/programs.ts';

const work = mkdtempSync(join(tmpdir(), 'odd-targets-bounds-e2e-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const runAgainst = oddTargetRuns(work);

/** The response cap of the harness (harness/http.ts). */
const BODY_CAP = 1024 * 1024;

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
      // A bound of 15 s, not 25: at the safe rate it still sends the preflight and several tests'
      // requests (7 at 12 s, 13 at 25 s, measured), which is all this test asks of the run.
      ['--operation', 'vault', '--run-timeout', '15', '--request-timeout', '2000'],
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
