// A comparison of two runs: their facts, the clauses and tests whose outcome changed, and, when
// both kept their exchanges, the exchanges whose observed facts differ. What compare.json holds and
// the reports are written from.
import { basename, dirname } from 'node:path';
import { compareExchanges, type ExchangeComparison } from './exchanges.ts';
import { clauseChanges, testChanges, type Change, type LoadedRun } from './runs.ts';

export interface RunFacts {
  results: string;
  target: string;
  startedAt: string;
  seed: number;
  commit: string;
  verdict: string;
  flags: string[];
}

export interface Comparison {
  a: RunFacts;
  b: RunFacts;
  clauses: Change[];
  tests: Change[];
  /** Absent when either run did not keep its exchanges. */
  exchanges?: ExchangeComparison;
  /** Something that held in A broke in B. */
  regressed: boolean;
}

function factsOf(run: LoadedRun): RunFacts {
  const { info, verdict } = run.result;
  return {
    results: run.results,
    target: info.target,
    startedAt: info.startedAt,
    seed: info.seed,
    commit: info.commit,
    verdict,
    flags: info.flags,
  };
}

export function compareRuns(a: LoadedRun, b: LoadedRun): Comparison {
  const clauses = clauseChanges(a.result, b.result);
  const tests = testChanges(a.result, b.result);
  return {
    a: factsOf(a),
    b: factsOf(b),
    clauses,
    tests,
    ...(a.exchanges && b.exchanges ? { exchanges: compareExchanges(a.exchanges, b.exchanges) } : {}),
    regressed: [...clauses, ...tests].some((c) => c.kind === 'broke'),
  };
}

/** A run's short name: its report directory. */
export function runName(facts: RunFacts): string {
  return basename(dirname(facts.results));
}
