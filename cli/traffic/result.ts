// The judgments of check-traffic as a run's results: one test per clause and recording (its
// judgments: how many held, every one that did not), the clauses joined with the registry, and a
// coverage table (the exchanges that bore on each clause; the clauses no exchange reached). The
// verdict is about what the recordings cover: FAIL when a judged exchange broke a gating clause,
// PASS when none did, INCOMPLETE when nothing was judged. A clause no exchange reached is never
// reported as held.
import { basename } from 'node:path';
import { clause as clauseOf, clauses as registry, type ClauseLevel } from '../../specs/index.ts';
import type { EndpointCounts, TrafficJudgment } from '../../traffic/judge.ts';
import type { Judgment } from '../../traffic/judgment.ts';
import { suiteCommit, suiteVersion } from '../paths.ts';
import { sentNothing, summarize, type RunResult, type TestOutcome, type Verdict } from '../reporters/results.ts';

export interface ClauseCoverage {
  id: string;
  section: string;
  level: ClauseLevel;
  summary: string;
  gating: boolean;
  /** Distinct exchanges that bore on the clause, those whose judgment held, those that broke it. */
  exchanges: number;
  held: number;
  broke: number;
  result: 'held' | 'broken' | 'not reached' | 'not testable' | 'gap';
}

export interface TrafficResult extends RunResult {
  traffic: {
    files: Array<EndpointCounts & { file: string }>;
    exchanges: number;
    judged: number;
    byEndpoint: Record<string, number>;
    coverage: ClauseCoverage[];
    /** Every judgment that did not hold. */
    failures: Judgment[];
  };
}

/** Shown per clause test: enough failures to act on, the count of the rest. */
const FAILURES_SHOWN = 50;

export interface TrafficRunInfo {
  /** The recording files, in the order judged. */
  files: string[];
  strict: boolean;
  flags: string[];
  startedAt: number;
}

export function trafficResult(judged: TrafficJudgment, run: TrafficRunInfo): TrafficResult {
  const tests = testsOf(judged.judgments, run.strict);
  const info = {
    target: `recordings: ${run.files.map((f) => basename(f)).join(', ')}`,
    baseUrl: '(none: check-traffic sends nothing)',
    seed: 0,
    strict: run.strict,
    flags: ['check-traffic', `judged ${judged.judged} exchanges`, ...run.flags],
    version: suiteVersion(),
    commit: suiteCommit(),
    startedAt: new Date(run.startedAt).toISOString(),
    wallMs: Date.now() - run.startedAt,
    filtered: false,
    preflightRequests: 0,
    shared: {},
    plannedRequests: 0,
    exhaustionMax: 0,
    waitedMs: 0,
    unplanned429s: 0,
  };
  const result = summarize(tests, [], info);
  const coverage = coverageOf(judged.judgments, run.strict);
  // A clause no exchange reached is not verified, for that reason; the verdict is about the rest.
  const clauses = result.clauses.map((c) =>
    c.status === 'not selected' ? { ...c, status: 'not verified' as const, reasons: ['[not-reached] no recorded exchange bore on it'] } : c,
  );
  const failing = tests.some((t) => t.state === 'failed' && t.gating);
  const verdict: Verdict = failing ? 'FAIL' : judged.judged > 0 ? 'PASS' : 'INCOMPLETE';
  return {
    ...result,
    clauses,
    verdict,
    traffic: {
      files: run.files.map((file, i) => ({ file, ...judged.files[i]! })),
      exchanges: judged.exchanges,
      judged: judged.judged,
      byEndpoint: judged.byEndpoint,
      coverage,
      failures: judged.judgments.filter((j) => j.outcome === 'fail'),
    },
  };
}

function testsOf(judgments: readonly Judgment[], strict: boolean): TestOutcome[] {
  const groups = new Map<string, Judgment[]>();
  for (const j of judgments) {
    const key = `${j.file}\n${j.clause}`;
    groups.set(key, [...(groups.get(key) ?? []), j]);
  }
  return [...groups.values()].map((group) => {
    const { clause: id, file } = group[0]!;
    const entry = clauseOf(id);
    const failed = group.filter((j) => j.outcome === 'fail');
    const exchanges = new Set(group.map((j) => j.position)).size;
    const name = `[§${entry.section} ${id}] the exchanges of ${basename(file)} that bear on it`;
    const errors = failed.slice(0, FAILURES_SHOWN).map(describeFailure);
    if (failed.length > FAILURES_SHOWN) errors.push(`... and ${failed.length - FAILURES_SHOWN} more exchanges that broke it`);
    return {
      file,
      name,
      fullName: name,
      clause: id,
      section: entry.section,
      level: entry.level,
      state: failed.length > 0 ? 'failed' : 'passed',
      gating: entry.level === 'contract' || (entry.level === 'observed' && strict),
      ...(failed.length > 0
        ? { failure: `${id}: ${failed.length} of ${exchanges} exchanges broke it; first: ${oneLine(failed[0]!)}` }
        : {}),
      errors,
      ...sentNothing(),
    } satisfies TestOutcome;
  });
}

export function oneLine(j: Judgment): string {
  return `exchange ${j.position} (${j.exchange}) ${j.check}: expected ${j.expected ?? '?'}, got ${j.actual ?? '?'}`;
}

export function describeFailure(j: Judgment): string {
  return [
    `clause: ${j.clause}`,
    `exchange: ${j.position} of ${j.file}: ${j.exchange}`,
    `check: ${j.check}`,
    `expected: ${j.expected ?? '?'}`,
    `actual: ${j.actual ?? '?'}`,
    ...(j.related?.length ? [`compared with: exchange ${j.related.join(', ')}`] : []),
  ].join('\n');
}

function coverageOf(judgments: readonly Judgment[], strict: boolean): ClauseCoverage[] {
  return registry.map((entry) => {
    const mine = judgments.filter((j) => j.clause === entry.id);
    const exchanges = new Set(mine.map((j) => `${j.file}\n${j.position}`));
    const broke = new Set(mine.filter((j) => j.outcome === 'fail').map((j) => `${j.file}\n${j.position}`));
    const result: ClauseCoverage['result'] =
      entry.level === 'gap'
        ? 'gap'
        : !entry.testable
          ? 'not testable'
          : exchanges.size === 0
            ? 'not reached'
            : broke.size > 0
              ? 'broken'
              : 'held';
    return {
      id: entry.id,
      section: entry.section,
      level: entry.level,
      summary: entry.summary,
      gating: entry.testable && (entry.level === 'contract' || (entry.level === 'observed' && strict)),
      exchanges: exchanges.size,
      held: exchanges.size - broke.size,
      broke: broke.size,
      result,
    };
  });
}
