// What the console shows at the end of a run: every failure in full (gating first), the clauses
// a gating verdict could not verify and why, the totals and the verdict. Every line passes the
// redactor.
import { redactor } from '../../harness/runner.ts';
import { observed } from '../../specs/index.ts';
import { bothAnswers, confirmationLine, confirmationNote, notReproduced } from '../confirmation-report.ts';
import { pacingLine, pacingProblems } from '../pacing-report.ts';
import { quotaLine, tokensLine } from '../token-report.ts';
import { BUG_REPORT, stoppedLine, unverifiedReasons, type RunResult, type Tally, type TestOutcome } from './results.ts';

const QUOTA_HEADER_NAME = observed.tokens.quota.header;

export function printRunSummary(result: RunResult, reportPaths: string[], print: (line: string) => void): void {
  const say = (line: string) => print(redactor.redact(line));
  const failed = result.tests.filter((t) => t.state === 'failed');
  const ordered = [...failed.filter((t) => t.gating), ...failed.filter((t) => !t.gating)];
  for (const test of ordered) {
    printTest(
      `${test.gating ? 'FAIL' : test.known ? `FAIL (known: ${test.known.reason})` : 'FAIL (observed, not gating)'} ${test.fullName}`,
      test,
      say,
    );
    const note = confirmationNote(test);
    if (note !== undefined) say(`  ${note}`);
  }
  for (const test of notReproduced(result)) {
    say('');
    say(`NOT REPRODUCED ${test.fullName}`);
    for (const line of bothAnswers(test)) say(line);
  }
  for (const test of result.tests.filter((t) => t.state === 'error'))
    printTest(`ERROR (the suite's, not the target's) ${test.fullName}`, test, say);
  for (const error of result.unhandled) say(`\nERROR outside tests: ${error}`);
  for (const test of result.untagged) say(`\nUNTAGGED ${test}: no known clause tag [§<section> <clause-id>]`);
  for (const name of result.fixedKnownFailures) say(`\nKNOWN FAILURE PASSED (the baseline can shrink): ${name}`);
  const unverified = unverifiedReasons(result);
  if (result.info.stopped) say(`\n${stoppedLine(result.info.stopped)}`);
  if (unverified.length > 0) {
    say('\nNOT VERIFIED (gating clauses):');
    for (const u of unverified) say(`  ${u.id}: ${u.reasons.join('; ')}`);
  }
  const count = (status: string) => result.clauses.filter((c) => c.gating && c.status === status).length;
  const { info } = result;
  say('');
  say(`contract: ${tallyText(result.contract)}`);
  say(`observed: ${tallyText(result.observed)}${info.strict ? ' (gating)' : ' (not gating)'}`);
  say(
    `gating clauses: ${count('verified')} verified, ${count('failed')} failed, ${count('partial')} partial, ${count('not verified')} not verified${info.shard ? '' : `, ${count('not selected')} not selected`}`,
  );
  say(
    `requests: ${result.requests} sent, ${requestsPlanned(info)}    waiting for the rate limit: ${(info.waitedMs / 1000).toFixed(1)} s    429s outside the exhaustion: ${info.unplanned429s}`,
  );
  if (info.pacing) {
    say(`rate limit: ${pacingLine(info.pacing)}`);
    for (const problem of pacingProblems(info.pacing)) say(`rate limit: ${problem}`);
  }
  if (info.tokens) {
    say(`tokens: ${tokensLine(info.tokens)}`);
    const quota = quotaLine(info.tokens);
    if (quota !== undefined) say(`token quota (${QUOTA_HEADER_NAME}): ${quota}`);
    for (const problem of info.tokens.problems) say(`token cache: ${problem}`);
  }
  const confirmations = confirmationLine(info);
  if (confirmations !== undefined) say(confirmations);
  say(`seed: ${info.seed}    wall time: ${(info.wallMs / 1000).toFixed(1)} s`);
  say(`reports:  ${reportPaths.join(', ')}`);
  if (result.verdict === 'ERROR') say(BUG_REPORT);
  say(`RESULT: ${result.verdict}`);
}

function printTest(heading: string, test: TestOutcome, say: (line: string) => void): void {
  say('');
  say(heading);
  for (const error of test.errors)
    say(
      error
        .split('\n')
        .map((l) => `  ${l}`)
        .join('\n'),
    );
}

/** "12 passed, 1 failed, 3 skipped", and the suite's errors when there are any. */
export function tallyText(tally: Tally): string {
  return `${tally.passed} passed, ${tally.failed} failed, ${tally.skipped} skipped${tally.errored > 0 ? `, ${tally.errored} suite errors` : ''}`;
}

/** "planned 120" or "planned 120 + the exhaustion (at most 100; it sent 11)", with the reserve to confirm failures. */
export function requestsPlanned(info: RunResult['info']): string {
  const spent = info.shared['rate-limit exhaustion'];
  const reserve = info.confirmations
    ? ` (${info.confirmations.reserve} of them to confirm failures; ${info.confirmations.requests} used)`
    : '';
  if (spent === undefined) return `planned ${info.plannedRequests}${reserve}`;
  return `planned ${info.plannedRequests - info.exhaustionMax}${reserve} + the exhaustion (at most ${info.exhaustionMax}; it sent ${spent})`;
}
