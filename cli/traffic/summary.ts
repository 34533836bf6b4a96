// summary.md of check-traffic: the verdict and what it covers ("judged N exchanges"), the
// recordings, the failures (gating first), the coverage of every clause, and the clauses no
// recorded exchange reached (never reported as held).
import { operationKeys } from '../../specs/index.ts';
import type { ClauseCoverage, TrafficResult } from './result.ts';

export const TRAFFIC_VERDICT_TEXT: Record<TrafficResult['verdict'], string> = {
  PASS: 'no judged exchange broke a gating clause; what the recordings did not reach is listed, not claimed',
  FAIL: 'a judged exchange broke a gating clause',
  INCOMPLETE: 'no exchange of the three operations or the token endpoint was found to judge',
  ERROR: 'the judge itself erred: nothing is said of the recordings',
};

export const COVERAGE_TEXT: Record<ClauseCoverage['result'], string> = {
  held: '✅ held',
  broken: '❌ broken',
  'not reached': '· not reached',
  'not testable': '— not testable',
  gap: '· gap',
};

const ENDPOINTS = [...operationKeys, 'token'];

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** "judged 1643 exchanges (of 1644 read, from 1 recording)". */
export function judgedLine(result: TrafficResult): string {
  const { traffic } = result;
  return `judged ${traffic.judged} exchange${traffic.judged === 1 ? '' : 's'} (of ${traffic.exchanges} read, from ${traffic.files.length} recording${traffic.files.length === 1 ? '' : 's'})`;
}

export function reachedLine(result: TrafficResult): string {
  const gating = result.traffic.coverage.filter((c) => c.gating);
  const reached = gating.filter((c) => c.result === 'held' || c.result === 'broken').length;
  return `${reached} of ${gating.length} gating clauses reached`;
}

export function renderTrafficSummary(result: TrafficResult): string {
  const { traffic } = result;
  const lines = [
    '# Passive conformance report: management API v2',
    '',
    `Result: **${result.verdict}**: ${TRAFFIC_VERDICT_TEXT[result.verdict]}. ${cell(judgedLine(result))}; ${reachedLine(result)}${result.info.strict ? ' (observed clauses gating: --strict)' : ''}. Nothing was sent.`,
    '',
    `| Recording | Exchanges | ${ENDPOINTS.join(' | ')} |`,
    `|---|---|${ENDPOINTS.map(() => '---').join('|')}|`,
    ...traffic.files.map(
      (f) => `| \`${cell(f.file)}\` | ${f.judged} judged of ${f.exchanges} | ${ENDPOINTS.map((e) => f.byEndpoint[e] ?? 0).join(' | ')} |`,
    ),
    '',
  ];
  const failed = result.tests.filter((t) => t.state === 'failed');
  for (const [heading, tests] of [
    ['Gating clauses broken', failed.filter((t) => t.gating)],
    ['Observed clauses broken (not gating)', failed.filter((t) => !t.gating)],
  ] as const) {
    if (tests.length === 0) continue;
    lines.push(`## ${heading}`, '');
    for (const t of tests) lines.push(`### ${cell(t.name)}`, '', '```', ...t.errors.flatMap((e) => [e, '']), '```', '');
  }
  lines.push(
    '## Coverage per clause',
    '',
    'Exchanges: the recorded exchanges that bore on the clause; held and broke count them.',
    '',
    '| Clause | § | Level | Exchanges | Held | Broke | Result |',
    '|---|---|---|---|---|---|---|',
    ...traffic.coverage.map(
      (c) =>
        `| \`${c.id}\` | ${c.section} | ${c.level}${c.gating && c.level !== 'contract' ? ' (gating)' : ''} | ${c.exchanges} | ${c.held} | ${c.broke} | ${COVERAGE_TEXT[c.result]} |`,
    ),
    '',
  );
  const unreached = traffic.coverage.filter((c) => c.result === 'not reached');
  if (unreached.length > 0) {
    lines.push(
      '## Clauses no recorded exchange reached',
      '',
      'Nothing is said of these: record traffic that exercises them, or run the suite (npm start).',
      '',
      ...unreached.map((c) => `- \`${c.id}\` (${c.level}): ${cell(c.summary)}`),
      '',
    );
  }
  return lines.join('\n');
}
