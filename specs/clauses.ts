// The clause registry: every testable statement of the spec, with a stable id (clauses.yaml).
import type { OperationKey } from './openapi.ts';
import { readSpecFile } from './load.ts';

export type ClauseLevel = 'contract' | 'observed' | 'gap';
export type Strength = 'rec' | 'doc' | 'sdk' | 'inf';

export interface LimitLocation {
  schema?: string;
  property?: string;
  operation?: OperationKey;
  in?: 'path' | 'header' | 'body';
  name?: string;
}

export interface ClauseLimit {
  location: LimitLocation;
  kind: 'length' | 'value';
  min?: number;
  max?: number;
}

export interface Clause {
  id: string;
  section: string;
  level: ClauseLevel;
  summary: string;
  covers: string[];
  strength?: Strength;
  /** False when no black-box test can check the clause; `reason` says why. */
  testable: boolean;
  reason?: string;
  limit?: ClauseLimit;
  operations?: OperationKey[];
}

export interface Statement {
  id: string;
  section: string;
  text: string;
}

interface RegistryFile {
  statements: Statement[];
  clauses: Array<Omit<Clause, 'testable' | 'covers'> & { testable?: boolean; covers?: string[] }>;
}

/** The raw registry file, for the tests that check its structure. */
export const registryFile = readSpecFile('clauses.yaml') as RegistryFile;

export const statements: readonly Statement[] = registryFile.statements;

export const clauses: readonly Clause[] = registryFile.clauses.map((entry) => ({
  ...entry,
  covers: entry.covers ?? [],
  testable: entry.level !== 'gap' && entry.testable !== false,
}));

const byId = new Map(clauses.map((c) => [c.id, c]));

export const CLAUSE_ID_PATTERN = /^[a-z][a-z0-9_-]*(\.[a-z0-9][a-z0-9_-]*)+$/;

export function hasClause(id: string): boolean {
  return byId.has(id);
}

export function clause(id: string): Clause {
  const found = byId.get(id);
  if (!found) throw new Error(`unknown clause id "${id}" (not in specs/clauses.yaml)`);
  return found;
}

/** The tag a test title starts with: "[§4.1 redeliver.success.202]". */
export function clauseTag(id: string): string {
  return `[§${clause(id).section} ${id}]`;
}

const TAG_PATTERN = /^\[§([0-9.]+) ([^\]\s]+)\] \S/;

/** Reads the clause tag at the start of a test title; undefined when there is none. */
export function parseClauseTag(title: string): { section: string; id: string } | undefined {
  const match = TAG_PATTERN.exec(title);
  return match ? { section: match[1]!, id: match[2]! } : undefined;
}
