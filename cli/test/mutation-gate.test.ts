// End to end, the mutation gate's economy. A fault whose first catch is recorded runs that test
// alone, beside a conformant control; a fault whose record is stale (a test that no longer exists,
// or one that does not fail against it alone) runs its clause's tests, stopping at the first that
// fails (the rest are counted as not run). Either way it is reported caught by a test citing its
// clause, and --record-first-catches writes what caught it. --every-test (running them all) is
// measured in docs/contributing.md.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { readFirstCatches } from '../first-catches.ts';
import type { FaultResult } from '../mutation-job.ts';
import { run } from './support/programs.ts';

const work = mkdtempSync(join(tmpdir(), 'mutation-gate-e2e-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

// Three faults of redeliver.success.202, where several tests cite that clause.
const RECORDED = 'redeliver-200-instead-of-202';
// Its recorded test redelivers through a stream after another stream's read: alone, it passes.
const PASSES_ALONE = 'events-memoised-from-the-first-stream-read';
const STALE = 'redeliver-204-instead-of-202';

it("catches a fault by its recorded first catch, and a fault whose record is stale by its clause's tests, stopping at the first that fails", async () => {
  const records = join(work, 'first-catches.json');
  const shipped = readFirstCatches();
  writeFileSync(
    records,
    JSON.stringify({
      [RECORDED]: shipped[RECORDED],
      [PASSES_ALONE]: shipped[PASSES_ALONE],
      [STALE]: '[§4.1 redeliver.success.202] a test renamed since it was recorded',
    }),
  );
  const json = join(work, 'gate.json');
  const finished = await run('cli/mutation.ts', [
    '--faults',
    [RECORDED, PASSES_ALONE, STALE].join(','),
    '--first-catches',
    records,
    '--record-first-catches',
    '--seeds',
    '0',
    '--jobs',
    '1',
    '--json',
    json,
  ]);
  expect(finished.code, finished.stdout + finished.stderr).toBe(0);
  const faults = (JSON.parse(readFileSync(json, 'utf8')) as { faults: FaultResult[] }).faults;
  const result = (id: string) => faults.find((f) => f.fault === id)!;
  expect(result(RECORDED)).toMatchObject({ caught: true, byRecordedTest: true, caughtBy: shipped[RECORDED], tests: { failed: 1 } });
  for (const id of [PASSES_ALONE, STALE]) {
    expect(result(id), id).toMatchObject({ caught: true, tests: { failed: 1 } });
    expect(result(id).byRecordedTest, id).toBeUndefined();
    expect(result(id).caughtBy, id).toContain('[§4.1 redeliver.success.202]');
    expect(result(id).tests.notRun, id).toBeGreaterThan(0);
  }
  expect(finished.stdout).toContain(
    "caught by their recorded first catch, run alone beside a conformant control: 1; by their clause's tests: 2",
  );
  // The stale record is replaced by the test that caught the fault in this run.
  expect(readFirstCatches(records)[STALE]).toBe(result(STALE).caughtBy);
}, 120_000);

it('names a first-catch record that is not one, and exits 2 before any run', async () => {
  const records = join(work, 'not-records.json');
  writeFileSync(records, '["a list"]');
  const finished = await run('cli/mutation.ts', ['--faults', RECORDED, '--first-catches', records]);
  expect(finished.code).toBe(2);
  expect(finished.stderr.trim()).toBe(`error: ${records}: not a first-catch record (an object of fault ids to test titles)`);
});
