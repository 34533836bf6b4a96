// summary.md: a human report tying every clause of the registry to its tests and their results,
// then per operation, requests used, skips with reasons and failures in full.
import { clauses, operationKeys, type Clause } from '../../specs/index.ts';
import type { RunInfo, RunResult, TestOutcome } from './results.ts';

export type ClauseStatus = 'pass' | 'fail' | 'fail (not gating)' | 'skipped' | 'untested' | 'not testable' | 'gap';

export interface ClauseRow {
  clause: Clause;
  tests: TestOutcome[];
  status: ClauseStatus;
}

export function clauseRows(result: RunResult): ClauseRow[] {
  return clauses.map((entry) => {
    const tests = result.tests.filter((t) => t.clause === entry.id);
    return { clause: entry, tests, status: statusOf(entry, tests) };
  });
}

function statusOf(entry: Clause, tests: TestOutcome[]): ClauseStatus {
  if (entry.level === 'gap') return 'gap';
  if (!entry.testable) return 'not testable';
  if (tests.length === 0) return 'untested';
  const failed = tests.filter((t) => t.state === 'failed');
  if (failed.length > 0) return failed.some((t) => t.gating) ? 'fail' : 'fail (not gating)';
  if (tests.every((t) => t.state === 'skipped')) return 'skipped';
  return 'pass';
}

const ICON: Record<ClauseStatus, string> = {
  pass: '✅ pass',
  fail: '❌ fail',
  'fail (not gating)': '⚠️ fail (not gating)',
  skipped: '⏭️ skipped',
  untested: '❔ untested',
  'not testable': '— not testable',
  gap: '· gap',
};

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

export function renderSummary(result: RunResult, info: RunInfo): string {
  const rows = clauseRows(result);
  const verdict = result.passed ? '**PASS**' : '**FAIL**';
  const lines: string[] = [
    '# Conformance report: management API v2',
    '',
    `Result: ${verdict}. Contract: ${result.contract.passed} passed, ${result.contract.failed} failed, ${result.contract.skipped} skipped. ` +
      `Observed: ${result.observed.passed} passed, ${result.observed.failed} failed, ${result.observed.skipped} skipped` +
      `${info.strict ? ' (gating: --strict)' : ' (not gating)'}.`,
    '',
    '| Run | |',
    '|---|---|',
    `| Target | ${cell(info.target)} |`,
    `| Base URL | ${cell(info.baseUrl)} |`,
    `| Started | ${info.startedAt.toISOString()} |`,
    `| Wall time | ${(info.wallMs / 1000).toFixed(1)} s |`,
    `| Seed | ${info.seed} (replay with \`--seed ${info.seed}\`) |`,
    `| Requests used | ${result.requests + info.extraRequests} |`,
    ...(info.shard ? [`| Shard | ${info.shard} |`] : []),
    '',
  ];
  if (result.unhandled.length > 0) {
    lines.push('## Errors outside tests', '', ...result.unhandled.map((e) => `- ${cell(e)}`), '');
  }
  if (result.untagged.length > 0) {
    lines.push('## Tests without a known clause tag', '', ...result.untagged.map((t) => `- \`${t.file}\`: ${cell(t.name)}`), '');
  }

  const counted = (status: ClauseStatus, level: string) => rows.filter((r) => r.status === status && r.clause.level === level).length;
  lines.push(
    '## Clauses',
    '',
    `Contract clauses: ${counted('pass', 'contract')} pass, ${counted('fail', 'contract')} fail, ${counted('skipped', 'contract')} skipped, ` +
      `${counted('untested', 'contract')} untested, ${counted('not testable', 'contract')} not black-box testable.`,
    '',
    '| Clause | § | Level | Tests | Result | Note |',
    '|---|---|---|---|---|---|',
  );
  for (const row of rows) {
    const level = row.clause.level === 'observed' ? `observed (${row.clause.strength})` : row.clause.level;
    const note = row.status === 'not testable' ? row.clause.reason ?? '' : row.status === 'gap' ? row.clause.summary : skipNotes(row.tests);
    const counts = row.tests.length === 0 ? '0' : `${row.tests.filter((t) => t.state === 'passed').length}/${row.tests.length}`;
    lines.push(`| \`${row.clause.id}\` | ${row.clause.section} | ${level} | ${counts} | ${ICON[row.status]} | ${cell(note)} |`);
  }
  lines.push('', '## Per operation', '', '| Operation | Tests sending to it | Passed | Failed | Skipped | Requests |', '|---|---|---|---|---|---|');
  for (const key of [...operationKeys, 'token', 'jwks']) {
    const tests = result.tests.filter((t) => (t.operations[key] ?? 0) > 0 || (t.clause?.startsWith(`${key}.`) ?? false));
    const requests = result.tests.reduce((sum, t) => sum + (t.operations[key] ?? 0), 0);
    const by = (s: string) => tests.filter((t) => t.state === s).length;
    lines.push(`| ${key} | ${tests.length} | ${by('passed')} | ${by('failed')} | ${by('skipped')} | ${requests} |`);
  }

  const skipped = result.tests.filter((t) => t.state === 'skipped');
  if (skipped.length > 0) {
    lines.push('', '## Skipped tests', '', ...skipped.map((t) => `- ${cell(t.name)}: ${cell(t.note ?? 'skipped')}`));
  }
  const failed = result.tests.filter((t) => t.state === 'failed');
  if (failed.length > 0) {
    lines.push('', '## Failures', '');
    for (const t of failed) {
      lines.push(`### ${cell(t.name)}${t.gating ? '' : ' (observed, not gating)'}`, '', `\`${t.file}\``, '', '```', ...t.errors, '```', '');
    }
  }
  lines.push('');
  return lines.join('\n');
}

function skipNotes(tests: TestOutcome[]): string {
  const notes = [...new Set(tests.filter((t) => t.state === 'skipped' && t.note).map((t) => t.note!))];
  return notes.length > 0 ? `skipped: ${notes.join('; ')}` : '';
}
