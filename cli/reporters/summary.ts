// summary.md: the human report. The verdict and why (each unverified gating clause with its
// reason), the run (target, flags, suite version and commit, requests, time spent waiting for the
// target's rate limit), gating failures before observed ones, then every clause of the registry
// with its tests and status, per operation, and the skipped tests with their reasons.
import { bothAnswers, confirmationLine, confirmationNote, notReproduced } from '../confirmation-report.ts';
import { pacingLine, pacingProblems } from '../pacing-report.ts';
import { quotaLine, tokensLine } from '../token-report.ts';
import { requestsPlanned, tallyText } from './console.ts';
import {
  BUG_REPORT,
  operationCoverage,
  stoppedLine,
  unverifiedReasons,
  type ClauseStatus,
  type RunResult,
  type TestOutcome,
} from './results.ts';

const ICON: Record<ClauseStatus, string> = {
  verified: '✅ verified',
  failed: '❌ failed',
  'failed (known)': '⚠️ failed (known)',
  partial: '◐ partial',
  'not verified': '⏭️ not verified',
  'not selected': '· not selected',
  'not testable': '— not testable',
  gap: '· gap',
};

/** What each verdict means, after the verdict itself. */
export const VERDICT_TEXT: Record<RunResult['verdict'], string> = {
  PASS: 'every gating clause was verified in full and passed',
  FAIL: 'a gating test failed',
  INCOMPLETE: 'no gating test failed, but some gating clauses were not verified (below, with the reason)',
  ERROR: 'the suite itself erred (below): that says nothing of the target',
};

/**
 * Text in a table cell or a list item, Markdown-safe: on one line, its pipes kept in the cell, and
 * no HTML or link a target's text could make (a step summary renders it; an image would be fetched).
 */
function cell(text: string): string {
  return text
    .replace(/\\/g, '\\\\')
    .replace(/[\r\n]+/g, ' ')
    .replace(/([|<>])/g, '\\$1')
    .replace(/\]\(/g, ']\\(');
}

/** A code block around `lines`: its fence longer than any run of backticks in them, so none can close it. */
function codeBlock(lines: readonly string[]): string[] {
  const longest = Math.max(0, ...lines.flatMap((line) => (line.match(/`+/g) ?? []).map((run) => run.length)));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return [fence, ...lines, fence];
}

export function renderSummary(result: RunResult): string {
  return [
    ...header(result),
    ...notVerified(result),
    ...problemsOutsideTests(result),
    ...failureSections(result),
    ...clauseTable(result),
    ...perOperation(result),
    ...skippedTests(result),
    '',
  ].join('\n');
}

function header(result: RunResult): string[] {
  const { info } = result;
  return [
    '# Conformance report: management API v2',
    '',
    `Result: **${result.verdict}**: ${VERDICT_TEXT[result.verdict]}. Contract: ${tallyText(result.contract)}. ` +
      `Observed: ${tallyText(result.observed)}${info.strict ? ' (gating: --strict)' : ' (not gating)'}.`,
    '',
    '| Run | |',
    '|---|---|',
    `| Target | ${cell(info.target)} |`,
    `| Base URL | ${cell(info.baseUrl)} |`,
    `| Flags | ${info.flags.length > 0 ? info.flags.map((f) => `\`${f}\``).join(' ') : '(none)'} |`,
    `| Suite | ${cell(info.version)} (commit ${cell(info.commit)}) |`,
    `| Started | ${info.startedAt} |`,
    `| Wall time | ${(info.wallMs / 1000).toFixed(1)} s |`,
    `| Seed | ${info.seed} (replay with \`--seed ${info.seed}\`) |`,
    `| Requests | ${result.requests} sent, ${requestsPlanned(info)} |`,
    `| Waiting for the target's rate limit | ${(info.waitedMs / 1000).toFixed(1)} s |`,
    `| 429s outside the exhaustion | ${info.unplanned429s} |`,
    ...(info.pacing ? [`| Rate limit | ${cell(pacingLine(info.pacing))} |`] : []),
    ...(info.pacing ? pacingProblems(info.pacing).map((problem) => `| Rate limit | ${cell(problem)} |`) : []),
    ...(info.tokens ? [`| Tokens | ${cell(tokensLine(info.tokens))} |`] : []),
    ...(info.tokens && quotaLine(info.tokens) ? [`| Token quota | ${cell(quotaLine(info.tokens)!)} |`] : []),
    ...(info.tokens?.problems ?? []).map((problem) => `| Token cache | ${cell(problem)} |`),
    ...(confirmationLine(info) ? [`| Confirmations | ${cell(confirmationLine(info)!.replace(/^confirmations: /, ''))} |`] : []),
    ...(info.shard ? [`| Shard | ${info.shard.index}/${info.shard.count} |`] : []),
    '',
    ...(info.stopped ? [cell(stoppedLine(info.stopped)), ''] : []),
    ...(result.verdict === 'ERROR' ? [BUG_REPORT, ''] : []),
  ];
}

function notVerified(result: RunResult): string[] {
  const unverified = unverifiedReasons(result);
  if (unverified.length === 0) return [];
  return [
    '## Gating clauses not verified',
    '',
    '| Clause | Why |',
    '|---|---|',
    ...unverified.map((u) => `| \`${u.id}\` | ${cell(u.reasons.join('; '))} |`),
    '',
  ];
}

function problemsOutsideTests(result: RunResult): string[] {
  return [
    ...(result.unhandled.length > 0 ? ['## Errors outside tests', '', ...result.unhandled.map((e) => `- ${cell(e)}`), ''] : []),
    ...(result.untagged.length > 0 ? ['## Tests without a known clause tag', '', ...result.untagged.map((t) => `- ${cell(t)}`), ''] : []),
  ];
}

function failureSections(result: RunResult): string[] {
  const failed = result.tests.filter((t) => t.state === 'failed');
  return [
    ...failures(
      'Gating failures',
      failed.filter((t) => t.gating),
    ),
    ...notReproducedSection(result),
    ...failures(
      'Observed failures (not gating)',
      failed.filter((t) => !t.gating && !t.known),
    ),
    ...failures(
      'Known failures (baseline, not gating)',
      failed.filter((t) => t.known),
    ),
    ...failures(
      "Suite errors (the suite's, not the target's)",
      result.tests.filter((t) => t.state === 'error'),
    ),
    ...(result.fixedKnownFailures.length > 0
      ? [
          '## Known failures that passed',
          '',
          'The baseline can shrink: these are listed as known failures but passed.',
          '',
          ...result.fixedKnownFailures.map((n) => `- ${cell(n)}`),
          '',
        ]
      : []),
  ];
}

/** Failures that passed when their requests were sent once more: their clauses are not verified. */
function notReproducedSection(result: RunResult): string[] {
  const flaky = notReproduced(result);
  if (flaky.length === 0) return [];
  return [
    '## Failures that did not reproduce',
    '',
    'Each failed once and passed when its requests were sent once more: its clause is not verified.',
    '',
    ...flaky.flatMap((t) => [`### ${cell(t.name)}`, '', ...codeBlock(bothAnswers(t)), '']),
  ];
}

function failures(heading: string, tests: TestOutcome[]): string[] {
  if (tests.length === 0) return [];
  return [
    `## ${heading}`,
    '',
    ...tests.flatMap((t) => [
      `### ${cell(t.name)}`,
      '',
      `\`${t.file}${t.line ? `:${t.line}` : ''}\`${t.known ? ` (known: ${cell(t.known.reason)})` : ''}`,
      '',
      ...codeBlock([...t.errors, ...(confirmationNote(t) ? [confirmationNote(t)!] : [])]),
      '',
    ]),
  ];
}

function clauseTable(result: RunResult): string[] {
  const count = (status: ClauseStatus) => result.clauses.filter((c) => c.status === status && c.level === 'contract').length;
  return [
    '## Clauses',
    '',
    `Contract clauses: ${count('verified')} verified, ${count('failed')} failed, ${count('partial')} partial, ` +
      `${count('not verified')} not verified, ${count('not selected')} not selected, ${count('not testable')} not black-box testable.`,
    '',
    '| Clause | § | Level | Passed/tests | Result | Note |',
    '|---|---|---|---|---|---|',
    ...result.clauses.map((row) => {
      const total = row.passed + row.failed + row.errored + row.skipped;
      const note = row.status === 'not testable' ? (row.note ?? '') : row.status === 'gap' ? row.summary : row.reasons.join('; ');
      return `| \`${row.id}\` | ${row.section} | ${row.level} | ${total === 0 ? '0' : `${row.passed}/${total}`} | ${ICON[row.status]} | ${cell(note)} |`;
    }),
  ];
}

function perOperation(result: RunResult): string[] {
  return [
    '',
    '## Per operation',
    '',
    '| Operation | Tests sending to it | Passed | Failed | Skipped | Requests |',
    '|---|---|---|---|---|---|',
    ...operationCoverage(result.tests).map(
      (row) => `| ${row.operation} | ${row.tests} | ${row.passed} | ${row.failed} | ${row.skipped} | ${row.requests} |`,
    ),
  ];
}

function skippedTests(result: RunResult): string[] {
  const skipped = result.tests.filter((t) => t.state === 'skipped');
  if (skipped.length === 0) return [];
  return [
    '',
    '## Skipped tests',
    '',
    ...skipped.map((t) => `- ${cell(t.name)}: [${t.skip?.category ?? 'skipped'}] ${cell(t.skip?.reason ?? '')}`),
  ];
}
