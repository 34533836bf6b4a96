// The history of many runs (a folder of results.json, at any depth), clause by clause: the status
// in each run, oldest first, when it last changed, how many times it changed, and how many times
// it flipped between passing and failing. Shards' own results are left out: their merge is the run.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { clauses as registry, type ClauseLevel } from '../../specs/index.ts';
import { clauseStanding, CompareError } from '../compare/runs.ts';
import type { ClauseStatus, RunResult } from '../reporters/results.ts';

export interface HistoryRun {
  /** Where its results.json is, relative to the folder. */
  file: string;
  startedAt: string;
  target: string;
  verdict: string;
  commit: string;
}

export interface ClauseHistory {
  id: string;
  section: string;
  level: ClauseLevel;
  summary: string;
  /** The status in each run, in the order of `runs` (undefined: that run does not know the clause). */
  statuses: Array<ClauseStatus | undefined>;
  /** The run in which the status last changed (index into runs), and from what to what. */
  lastChanged?: { run: number; from: string; to: string };
  /** Changes of status from one run to the next, and of those the flips between passed and failed. */
  changes: number;
  flips: number;
}

export interface History {
  folder: string;
  runs: HistoryRun[];
  clauses: ClauseHistory[];
}

/** Folders deeper than this are not searched: a folder of runs, not a file system. */
const MAX_DEPTH = 4;

function resultFiles(folder: string, depth = 0): string[] {
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch (error) {
    throw new CompareError(`cannot read the folder ${folder}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  return names.flatMap((name) => {
    const path = join(folder, name);
    if (name === 'results.json') return [path];
    if (name === 'shards' || depth >= MAX_DEPTH || !statSync(path).isDirectory()) return [];
    return resultFiles(path, depth + 1);
  });
}

export function historyOf(folder: string): History {
  const loaded = resultFiles(folder).flatMap((file) => {
    try {
      const result = JSON.parse(readFileSync(file, 'utf8')) as RunResult;
      return Array.isArray(result.clauses) && typeof result.info?.startedAt === 'string' ? [{ file, result }] : [];
    } catch {
      return [];
    }
  });
  if (loaded.length === 0) throw new CompareError(`no run's results.json under ${folder}`);
  loaded.sort((a, b) => a.result.info.startedAt.localeCompare(b.result.info.startedAt));
  const runs = loaded.map(({ file, result }) => ({
    file: relative(folder, file),
    startedAt: result.info.startedAt,
    target: result.info.target,
    verdict: result.verdict,
    commit: result.info.commit,
  }));
  const byRun = loaded.map(({ result }) => new Map(result.clauses.map((c) => [c.id, c.status])));
  const clauses = registry.map((entry): ClauseHistory => {
    const statuses = byRun.map((statusOf) => statusOf.get(entry.id));
    let changes = 0;
    let flips = 0;
    let lastChanged: ClauseHistory['lastChanged'];
    for (let i = 1; i < statuses.length; i += 1) {
      const before = statuses[i - 1];
      const after = statuses[i];
      if (before === undefined || after === undefined || before === after) continue;
      changes += 1;
      const [a, b] = [clauseStanding(before), clauseStanding(after)];
      if (a !== b && a !== 'no verdict' && b !== 'no verdict') flips += 1;
      lastChanged = { run: i, from: before, to: after };
    }
    return {
      id: entry.id,
      section: entry.section,
      level: entry.level,
      summary: entry.summary,
      statuses,
      ...(lastChanged ? { lastChanged } : {}),
      changes,
      flips,
    };
  });
  return { folder, runs, clauses };
}
