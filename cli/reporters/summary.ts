// summary.md: the human report. The verdict and why (each unverified gating clause with its
// reason), the run (target, flags, suite version and commit, requests, time spent waiting for the
// target's rate limit), gating failures before observed ones, then every clause of the registry
// with its tests and status, per operation, and the skipped tests with their reasons.
import { requestsPlanned } from './console.ts';
import { bothAnswers, confirmationLine, confirmationNote, notReproduced } from '../confirmation-report.ts';
import { pacingLine, pacingProblems } from '../pacing-report.ts';
import { quotaLine, tokensLine } from '../token-report.ts';
import { operationCoverage, unverifiedReasons, type ClauseStatus, type RunResult, type TestOutcome } from './results.ts';

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
};

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

export function renderSummary(result: RunResult): string {
  const { info } = result;
  const lines: string[] = [
    '# Conformance report: management API v2',
    '',
    `Result: **${result.verdict}**: ${VERDICT_TEXT[result.verdict]}. Contract: ${result.contract.passed} passed, ${result.contract.failed} failed, ${result.contract.skipped} skipped. ` +
      `Observed: ${result.observed.passed} passed, ${result.observed.failed} failed, ${result.observed.skipped} skipped` +
      `${info.strict ? ' (gating: --strict)' : ' (not gating)'}.`,
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
  ];
  const unverified = unverifiedReasons(result);
  if (info.stoppedEarly) lines.push(`The run stopped before its tests: ${cell(info.stoppedEarly)}`, '');
  if (unverified.length > 0) {
    lines.push(
      '## Gating clauses not verified',
      '',
      '| Clause | Why |',
      '|---|---|',
      ...unverified.map((u) => `| \`${u.id}\` | ${cell(u.reasons.join('; '))} |`),
      '',
    );
  }
  if (result.unhandled.length > 0) lines.push('## Errors outside tests', '', ...result.unhandled.map((e) => `- ${cell(e)}`), '');
  if (result.untagged.length > 0) lines.push('## Tests without a known clause tag', '', ...result.untagged.map((t) => `- ${cell(t)}`), '');

  const failed = result.tests.filter((t) => t.state === 'failed');
  failures(
    lines,
    'Gating failures',
    failed.filter((t) => t.gating),
  );
  const flaky = notReproduced(result);
  if (flaky.length > 0) {
    lines.push(
      '## Failures that did not reproduce',
      '',
      'Each failed once and passed when its requests were sent once more: its clause is not verified.',
      '',
    );
    for (const t of flaky) lines.push(`### ${cell(t.name)}`, '', '```', ...bothAnswers(t), '```', '');
  }
  failures(
    lines,
    'Observed failures (not gating)',
    failed.filter((t) => !t.gating && !t.known),
  );
  failures(
    lines,
    'Known failures (baseline, not gating)',
    failed.filter((t) => t.known),
  );
  if (result.fixedKnownFailures.length > 0) {
    lines.push(
      '## Known failures that passed',
      '',
      'The baseline can shrink: these are listed as known failures but passed.',
      '',
      ...result.fixedKnownFailures.map((n) => `- ${cell(n)}`),
      '',
    );
  }

  const count = (status: ClauseStatus, level: string) => result.clauses.filter((c) => c.status === status && c.level === level).length;
  lines.push(
    '## Clauses',
    '',
    `Contract clauses: ${count('verified', 'contract')} verified, ${count('failed', 'contract')} failed, ${count('partial', 'contract')} partial, ` +
      `${count('not verified', 'contract')} not verified, ${count('not selected', 'contract')} not selected, ${count('not testable', 'contract')} not black-box testable.`,
    '',
    '| Clause | § | Level | Passed/tests | Result | Note |',
    '|---|---|---|---|---|---|',
  );
  for (const row of result.clauses) {
    const total = row.passed + row.failed + row.skipped;
    const note = row.status === 'not testable' ? (row.note ?? '') : row.status === 'gap' ? row.summary : row.reasons.join('; ');
    lines.push(
      `| \`${row.id}\` | ${row.section} | ${row.level} | ${total === 0 ? '0' : `${row.passed}/${total}`} | ${ICON[row.status]} | ${cell(note)} |`,
    );
  }
  lines.push(
    '',
    '## Per operation',
    '',
    '| Operation | Tests sending to it | Passed | Failed | Skipped | Requests |',
    '|---|---|---|---|---|---|',
  );
  for (const row of operationCoverage(result.tests)) {
    lines.push(`| ${row.operation} | ${row.tests} | ${row.passed} | ${row.failed} | ${row.skipped} | ${row.requests} |`);
  }
  const skipped = result.tests.filter((t) => t.state === 'skipped');
  if (skipped.length > 0) {
    lines.push(
      '',
      '## Skipped tests',
      '',
      ...skipped.map((t) => `- ${cell(t.name)}: [${t.skip?.category ?? 'skipped'}] ${cell(t.skip?.reason ?? '')}`),
    );
  }
  lines.push('');
  return lines.join('\n');
}

function failures(lines: string[], heading: string, tests: TestOutcome[]): void {
  if (tests.length === 0) return;
  lines.push(`## ${heading}`, '');
  for (const t of tests) {
    lines.push(
      `### ${cell(t.name)}`,
      '',
      `\`${t.file}${t.line ? `:${t.line}` : ''}\`${t.known ? ` (known: ${cell(t.known.reason)})` : ''}`,
      '',
      '```',
      ...t.errors,
      ...(confirmationNote(t) ? [confirmationNote(t)!] : []),
      '```',
      '',
    );
  }
}
