// What check-traffic prints: each broken clause with its first failures (gating first), what the
// recordings covered, and the verdict with "judged N exchanges".
import type { TrafficResult } from './result.ts';
import { judgedLine, reachedLine } from './summary.ts';

/** Failures printed per broken clause; the reports hold them all. */
const PRINTED_PER_CLAUSE = 3;

export function printTrafficSummary(result: TrafficResult, reportPaths: string[], print: (line: string) => void): void {
  const failed = result.tests.filter((t) => t.state === 'failed');
  for (const test of [...failed.filter((t) => t.gating), ...failed.filter((t) => !t.gating)]) {
    print('');
    print(`${test.gating ? 'FAIL' : 'FAIL (observed, not gating)'} ${test.name}`);
    for (const error of test.errors.slice(0, PRINTED_PER_CLAUSE)) print(error.replace(/^/gm, '  '));
    if (test.errors.length > PRINTED_PER_CLAUSE) print(`  ... ${test.errors.length - PRINTED_PER_CLAUSE} more in the reports`);
  }
  const count = (outcome: string) => result.traffic.coverage.filter((c) => c.gating && c.result === outcome).length;
  print('');
  print(`${judgedLine(result)}; nothing was sent`);
  print(`gating clauses: ${count('held')} held, ${count('broken')} broken, ${count('not reached')} not reached (${reachedLine(result)})`);
  print(`reports:  ${reportPaths.join(', ')}`);
  print(`RESULT: ${result.verdict}`);
}
