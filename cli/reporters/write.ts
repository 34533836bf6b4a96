// Writes the reports of a run, every one through the redactor and with what a target sent made
// printable (printable.ts), and clears a previous run's before a new one starts, so that a reused
// CI workspace never publishes an old verdict.
import { existsSync, mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { redactor } from '../../harness/runner.ts';
import { renderHtml } from './html.ts';
import { renderJunit, renderObservedJunit } from './junit.ts';
import { printable } from './printable.ts';
import type { RunResult } from './results.ts';
import { renderSummary } from './summary.ts';

export const REPORT_FILES = ['junit.xml', 'junit-observed.xml', 'summary.md', 'results.json', 'report.html'] as const;
/** The run's exchanges with --record (harness/exchange-log.ts); an earlier run's is removed with its reports. */
export const RECORDING_FILE = 'exchanges.ndjson';

/** Makes sure reports can be written to `dir`, and removes an earlier run's; a problem says the path and why. */
export function prepareReportDir(dir: string): void {
  makeDirectory(dir);
  const probe = join(dir, `.write-check-${process.pid}`);
  writeFileSync(probe, '');
  rmSync(probe, { force: true });
  for (const file of [...REPORT_FILES, RECORDING_FILE]) rmSync(join(dir, file), { force: true });
}

export function writeReports(result: RunResult, dir: string): string[] {
  makeDirectory(dir);
  const files: Array<[string, string]> = [
    ['junit.xml', renderJunit(result)],
    ['junit-observed.xml', renderObservedJunit(result)],
    ['summary.md', renderSummary(result)],
    ['results.json', `${JSON.stringify(result, null, 2)}\n`],
    ['report.html', renderHtml(result)],
  ];
  for (const [name, text] of files) writeFileSync(join(dir, name), printable(redactor.redact(text)));
  return files.map(([name]) => join(dir, name));
}

/**
 * mkdir -p, one level at a time: Node's recursive mkdir retries forever where a parent refuses
 * new entries with ENOENT (anywhere under /proc), at full CPU. Here the first refusal is the error.
 */
function makeDirectory(dir: string): void {
  const missing: string[] = [];
  let at = resolve(dir);
  while (!existsSync(at) && dirname(at) !== at) {
    missing.unshift(at);
    at = dirname(at);
  }
  if (!statSync(at).isDirectory()) throw Object.assign(new Error(`${at} is not a directory`), { code: 'ENOTDIR', path: at });
  for (const path of missing) mkdirSync(path);
}
