// Two runs' results side by side, clause by clause and test by test: what passed in one and failed
// in the other, what ran in one only, and every other change of a clause's status.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { ClauseStatus, RunResult, TestState } from '../reporters/results.ts';
import { RECORDING_FILE } from '../reporters/write.ts';

export class CompareError extends Error {
  override name = 'CompareError';
}

export interface LoadedRun {
  /** Where its results.json is. */
  results: string;
  result: RunResult;
  /** Its exchanges.ndjson, when the run kept its exchanges (--record). */
  exchanges?: string;
}

/** A run given as its report directory or its results.json. */
export function loadRun(where: string): LoadedRun {
  const file = existsSync(where) && statSync(where).isDirectory() ? join(where, 'results.json') : where;
  let result: RunResult;
  try {
    result = JSON.parse(readFileSync(file, 'utf8')) as RunResult;
  } catch (error) {
    const err = error as NodeJS.ErrnoException;
    throw new CompareError(`${file} is not a run's results.json: ${err.code ?? err.message}`);
  }
  if (!Array.isArray(result.clauses) || !Array.isArray(result.tests) || typeof result.info !== 'object') {
    throw new CompareError(`${file} is JSON but not a run's results.json (it lacks clauses, tests or info)`);
  }
  const exchanges = join(dirname(file), RECORDING_FILE);
  return { results: file, result, ...(existsSync(exchanges) ? { exchanges } : {}) };
}

/** Where a clause or a test stands, in three words: it held, it broke, or it says nothing. */
export type Standing = 'passed' | 'failed' | 'no verdict';

export function clauseStanding(status: ClauseStatus | undefined): Standing {
  if (status === 'verified') return 'passed';
  return status === 'failed' || status === 'failed (known)' ? 'failed' : 'no verdict';
}

function testStanding(state: TestState | undefined): Standing {
  return state === 'passed' ? 'passed' : state === 'failed' ? 'failed' : 'no verdict';
}

export interface Change {
  id: string;
  a: string;
  b: string;
  /** passed → failed, failed → passed, or another change. */
  kind: 'broke' | 'fixed' | 'changed';
}

function kindOf(a: Standing, b: Standing): Change['kind'] {
  if (a === 'passed' && b === 'failed') return 'broke';
  if (a === 'failed' && b === 'passed') return 'fixed';
  return 'changed';
}

export function clauseChanges(a: RunResult, b: RunResult): Change[] {
  const right = new Map(b.clauses.map((c) => [c.id, c.status]));
  return a.clauses.flatMap((c) => {
    const other = right.get(c.id);
    if (other === undefined || other === c.status) return [];
    return [{ id: c.id, a: c.status, b: other, kind: kindOf(clauseStanding(c.status), clauseStanding(other)) }];
  });
}

export function testChanges(a: RunResult, b: RunResult): Change[] {
  const right = new Map(b.tests.map((t) => [t.name, t.state]));
  const left = new Map(a.tests.map((t) => [t.name, t.state]));
  const names = [...new Set([...left.keys(), ...right.keys()])];
  return names.flatMap((name) => {
    const before = left.get(name);
    const after = right.get(name);
    if (before === after) return [];
    return [{ id: name, a: before ?? 'not run', b: after ?? 'not run', kind: kindOf(testStanding(before), testStanding(after)) }];
  });
}
