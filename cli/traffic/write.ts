// Writes check-traffic's reports, each through the redactor: junit.xml and junit-observed.xml by
// the run's JUnit writer (a test per clause and recording), results.json, and its own summary.md
// and report.html (a passive verdict says what it covers, not that every clause was verified).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { redactor } from '../../harness/runner.ts';
import { renderJunit, renderObservedJunit } from '../reporters/junit.ts';
import { renderTrafficHtml } from './html.ts';
import type { TrafficResult } from './result.ts';
import { renderTrafficSummary } from './summary.ts';

export function writeTrafficReports(result: TrafficResult, dir: string): string[] {
  const files: Array<[string, string]> = [
    ['junit.xml', renderJunit(result)],
    ['junit-observed.xml', renderObservedJunit(result)],
    ['summary.md', renderTrafficSummary(result)],
    ['results.json', `${JSON.stringify(result, null, 2)}\n`],
    ['report.html', renderTrafficHtml(result)],
  ];
  for (const [name, text] of files) writeFileSync(join(dir, name), redactor.redact(text));
  return files.map(([name]) => join(dir, name));
}
