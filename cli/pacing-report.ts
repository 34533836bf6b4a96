// What the run learnt of the target's rate limit, for the console, summary.md and report.html:
// the bucket and the refill (declared, measured or the safe default) the pacer went by, others'
// use, the floor it left them against the lowest Remaining its own answers showed, and each header
// it could not believe. Values from the target are shown as the judge wrote them (escaped).
import type { PacingReport } from '../harness/runner.ts';
import { observed } from '../specs/index.ts';

const SOURCE: Record<PacingReport['refillSource'], string> = {
  declared: 'declared in the target file',
  measured: 'measured, a lower bound',
  default: 'not known: the safe default',
};

/** "Limit 10, refill 2.00/s (declared in the target file), others about 0.45/s, floor 5, lowest Remaining 5". */
export function pacingLine(report: PacingReport): string {
  if (!report.readsBucket) {
    return `no usable ${observed.rate_limit.headers.limit} and ${observed.rate_limit.headers.remaining}: paced at the safe rate (share of ${report.refillPerSecond.toFixed(2)}/s, ${SOURCE[report.refillSource]})`;
  }
  return `${observed.rate_limit.headers.limit} ${report.limit ?? '?'}, refill ${report.refillPerSecond.toFixed(2)}/s (${SOURCE[report.refillSource]}), others about ${report.othersPerSecond.toFixed(2)}/s, floor ${report.floor}, lowest ${observed.rate_limit.headers.remaining} of the suite's answers ${report.lowestRemaining ?? '?'}`;
}

/** Each header the pacer did not use, and why. */
export function pacingProblems(report: PacingReport): string[] {
  return report.problems.map((problem) => `not used for pacing: ${problem}`);
}
