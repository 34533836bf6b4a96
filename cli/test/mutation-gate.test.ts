// End to end, the mutation gate's economy: a fault's tests stop at the first that fails against it
// (the fault is caught), the rest are counted as not run; the gate still reports the fault caught,
// by a test citing its clause. --every-test (running them all) is measured in docs/contributing.md.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import type { FaultResult } from '../mutation-job.ts';
import { run } from './support/programs.ts';

const work = mkdtempSync(join(tmpdir(), 'mutation-gate-e2e-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

it('stops a caught fault at its first failing test and reports it caught by a test of its clause', async () => {
  const json = join(work, 'gate.json');
  // Several tests cite redeliver.success.202; more than one fails against a 200 for a 202.
  const finished = await run('cli/mutation.ts', [
    '--faults',
    'redeliver-200-instead-of-202',
    '--seeds',
    '0',
    '--jobs',
    '1',
    '--json',
    json,
  ]);
  expect(finished.code, finished.stdout + finished.stderr).toBe(0);
  const [fault] = (JSON.parse(readFileSync(json, 'utf8')) as { faults: FaultResult[] }).faults;
  expect(fault).toMatchObject({ fault: 'redeliver-200-instead-of-202', caught: true, tests: { failed: 1 } });
  expect(fault!.caughtBy).toContain('redeliver.success.202');
  expect(fault!.tests.notRun).toBeGreaterThan(0);
}, 120_000);
