// What the confirmation of failures came to, for the console and summary.md: the tally against
// the plan's reserve, a note under each failure (confirmed, or why not), and each failure that did
// not reproduce with both answers (the first failure in full, what its requests got the second
// time). Every line is redacted by the reporter that prints it.
import type { RunResult, TestOutcome } from './reporters/results.ts';

/** "confirmations: 3 failures sent once more (7 requests of the 20 reserved): 2 reproduced, 1 not reproduced; 1 not confirmed". */
export function confirmationLine(info: RunResult['info']): string | undefined {
  const tally = info.confirmations;
  if (!tally || tally.reproduced + tally.notReproduced + tally.notConfirmed === 0) return undefined;
  const sent = tally.reproduced + tally.notReproduced;
  return `confirmations: ${sent} failure${sent === 1 ? '' : 's'} sent once more (${tally.requests} requests of the ${tally.reserve} reserved): ${tally.reproduced} reproduced, ${tally.notReproduced} not reproduced; ${tally.notConfirmed} not confirmed`;
}

/** The line under a failure: whether it was confirmed. */
export function confirmationNote(test: TestOutcome): string | undefined {
  const confirmation = test.confirmation;
  if (!confirmation) return undefined;
  if (confirmation.outcome === 'reproduced')
    return `confirmed: it failed again when its requests were sent once more (${confirmation.requests})`;
  if (confirmation.outcome === 'not confirmed') return `not confirmed: ${confirmation.reason ?? ''}`;
  return undefined;
}

/** The tests whose failure did not reproduce. */
export function notReproduced(result: RunResult): TestOutcome[] {
  return result.tests.filter((t) => t.confirmation?.outcome === 'not reproduced');
}

/** Both answers of a failure that did not reproduce, as indented lines. */
export function bothAnswers(test: TestOutcome): string[] {
  const confirmation = test.confirmation!;
  return [
    '  the first time it failed:',
    ...(confirmation.first ?? '').split('\n').map((line) => `    ${line}`),
    `  sent once more (${confirmation.requests} requests), it passed; the answers:`,
    ...(confirmation.again ?? []).map((line) => `    ${line}`),
  ];
}
