// The outcome of a conformance run, read from vitest's test modules and joined with the clause
// registry: what every report is written from.
import { relative } from 'node:path';
import type { TestCase, TestModule } from 'vitest/node';
import type { ClauseLevel } from '../../specs/index.ts';
import { citedClause } from '../tags.ts';
import { redactor } from '../../harness/redact.ts';

export type TestState = 'passed' | 'failed' | 'skipped';

export interface TestOutcome {
  file: string;
  name: string;
  fullName: string;
  clause?: string;
  section?: string;
  level?: ClauseLevel;
  state: TestState;
  /** Whether this test's failure fails the run. */
  gating: boolean;
  /** Skip reason, when skipped. */
  note?: string;
  errors: string[];
  durationMs: number;
  requests: number;
  operations: Record<string, number>;
}

/** Facts about the run that are not in the test results. */
export interface RunInfo {
  target: string;
  baseUrl: string;
  seed: number;
  strict: boolean;
  startedAt: Date;
  wallMs: number;
  shard?: string;
  /** Requests sent outside the tests (the runner's preflight). */
  extraRequests: number;
}

export interface RunResult {
  tests: TestOutcome[];
  /** Errors outside any test (a file that failed to load, an unhandled rejection). */
  unhandled: string[];
  /** Tests without a clause tag, or citing a clause the registry does not have. */
  untagged: TestOutcome[];
  contract: Tally;
  observed: Tally;
  requests: number;
  /** True when every gating test passed and nothing else went wrong. */
  passed: boolean;
}

export interface Tally {
  passed: number;
  failed: number;
  skipped: number;
}

export function collectResults(modules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<{ message?: string; stack?: string }>, strict: boolean, root: string): RunResult {
  const tests: TestOutcome[] = [];
  const unhandled = unhandledErrors.map((e) => redactor.redact(e.message ?? String(e)));
  for (const module of modules) {
    const file = relative(root, module.moduleId);
    for (const error of module.errors()) unhandled.push(redactor.redact(`${file}: ${error.message}`));
    for (const test of module.children.allTests()) if (partOfThisRun(test)) tests.push(outcomeOf(test, file, strict));
  }
  const untagged = tests.filter((t) => !t.clause);
  const tally = (level: ClauseLevel): Tally => ({
    passed: tests.filter((t) => t.level === level && t.state === 'passed').length,
    failed: tests.filter((t) => t.level === level && t.state === 'failed').length,
    skipped: tests.filter((t) => t.level === level && t.state === 'skipped').length,
  });
  const gatingFailures = tests.filter((t) => t.state === 'failed' && t.gating);
  return {
    tests,
    unhandled,
    untagged,
    contract: tally('contract'),
    observed: tally('observed'),
    requests: tests.reduce((sum, t) => sum + t.requests, 0),
    passed: gatingFailures.length === 0 && untagged.length === 0 && unhandled.length === 0 && tests.length > 0,
  };
}

/** Tests left out by --grep never ran: they are not part of this run's result. */
export function partOfThisRun(test: TestCase): boolean {
  const result = test.result();
  return !(test.options.mode === 'skip' && result.state === 'skipped' && !result.note);
}

function outcomeOf(test: TestCase, file: string, strict: boolean): TestOutcome {
  const result = test.result();
  const known = citedClause(test.name);
  const state: TestState = result.state === 'passed' ? 'passed' : result.state === 'failed' ? 'failed' : 'skipped';
  const meta = test.meta();
  const level = known?.level;
  return {
    file,
    name: test.name,
    fullName: test.fullName,
    ...(known ? { clause: known.id, section: known.section, level: known.level } : {}),
    state,
    // An untagged test, or one citing an unknown clause, gates: the meta rule is part of the contract run.
    gating: level === undefined || level === 'contract' || (level === 'observed' && strict),
    ...(result.state === 'skipped' && result.note ? { note: redactor.redact(result.note) } : {}),
    errors: (result.errors ?? []).map((e) => redactor.redact(withoutStackFrames(e.message ?? String(e)))),
    durationMs: Math.round(test.diagnostic()?.duration ?? 0),
    requests: meta.requests ?? 0,
    operations: meta.operations ?? {},
  };
}

/** fast-check puts the failing assertion, stack and all, inside its message; the frames say nothing to a reader. */
function withoutStackFrames(message: string): string {
  return message.split('\n').filter((line) => !/^\s+at .+:\d+:\d+\)?$/.test(line)).join('\n');
}
