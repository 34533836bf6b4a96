// The figures of a StrykerJS run: mutants by status, the score, and the score once the mutants
// reviewed as equivalent (bench/stryker/equivalent-mutants.yaml) are left out. Stryker's own
// definitions: a mutant is detected when a test failed (killed) or the run timed out; it is
// undetected when it survived or no test reached it; mutants that did not compile or crashed the
// run are not counted.
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';

export type MutantStatus = 'Killed' | 'Timeout' | 'Survived' | 'NoCoverage' | 'CompileError' | 'RuntimeError' | 'Ignored' | 'Pending';

export interface Mutant {
  /** Relative to the project root. */
  file: string;
  line: number;
  column: number;
  mutator: string;
  /** The first line of the code the mutant replaces, trimmed. */
  original: string;
  replacement: string;
  status: MutantStatus;
  /** For a killed mutant, the failure that killed it. */
  statusReason?: string;
}

/** A mutant reviewed as equivalent (or unreachable): no request can tell it from the mock. */
export interface EquivalentMutant {
  file: string;
  line: number;
  mutator: string;
  original: string;
  replacement: string;
  reason: string;
}

export interface Figures {
  total: number;
  byStatus: Partial<Record<MutantStatus, number>>;
  detected: number;
  /** Detected and undetected: the score's denominator. */
  valid: number;
  /** Detected / valid, in percent; undefined without a valid mutant. */
  score: number | undefined;
  /** Undetected mutants that are listed as equivalent. */
  equivalent: Array<{ mutant: Mutant; entry: EquivalentMutant }>;
  /** Detected / (valid - equivalent), in percent. */
  nonEquivalentScore: number | undefined;
  /** Undetected mutants not listed as equivalent: the gaps of the suite. */
  survivors: Mutant[];
  /** Entries of the list (of a file in scope) that match no undetected mutant: the code moved on, or a test now kills it. */
  stale: Array<{ entry: EquivalentMutant; killedAs?: Mutant }>;
}

const DETECTED: readonly MutantStatus[] = ['Killed', 'Timeout'];
const UNDETECTED: readonly MutantStatus[] = ['Survived', 'NoCoverage'];

const squash = (code: string) => code.replace(/\s+/g, ' ').trim();

/** The mutants of `entry`'s kind, nearest its recorded line first. */
function candidates(entry: EquivalentMutant, mutants: readonly Mutant[]): Mutant[] {
  return mutants
    .filter(
      (m) =>
        m.file === entry.file &&
        m.mutator === entry.mutator &&
        squash(m.replacement) === squash(entry.replacement) &&
        squash(m.original) === squash(entry.original),
    )
    .sort((a, b) => Math.abs(a.line - entry.line) - Math.abs(b.line - entry.line));
}

export function figuresOf(mutants: readonly Mutant[], equivalents: readonly EquivalentMutant[]): Figures {
  const byStatus: Partial<Record<MutantStatus, number>> = {};
  for (const m of mutants) byStatus[m.status] = (byStatus[m.status] ?? 0) + 1;
  const detected = mutants.filter((m) => DETECTED.includes(m.status)).length;
  const undetected = mutants.filter((m) => UNDETECTED.includes(m.status));
  const valid = detected + undetected.length;

  const inScope = new Set(mutants.map((m) => m.file));
  const taken = new Set<Mutant>();
  const equivalent: Figures['equivalent'] = [];
  const stale: Figures['stale'] = [];
  for (const entry of equivalents.filter((e) => inScope.has(e.file))) {
    const match = candidates(entry, undetected).find((m) => !taken.has(m));
    if (match) {
      taken.add(match);
      equivalent.push({ mutant: match, entry });
    } else {
      const killedAs = candidates(entry, mutants).find((m) => DETECTED.includes(m.status));
      stale.push(killedAs ? { entry, killedAs } : { entry });
    }
  }
  const percent = (part: number, whole: number) => (whole === 0 ? undefined : (100 * part) / whole);
  return {
    total: mutants.length,
    byStatus,
    detected,
    valid,
    score: percent(detected, valid),
    equivalent,
    nonEquivalentScore: percent(detected, valid - equivalent.length),
    survivors: undetected
      .filter((m) => !taken.has(m))
      .sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line || a.column - b.column),
    stale,
  };
}

/** Reads the list of reviewed equivalent mutants; a malformed entry is named. */
export function loadEquivalents(path: string): EquivalentMutant[] {
  const data = parse(readFileSync(path, 'utf8')) as unknown;
  if (data === null || data === undefined) return [];
  if (!Array.isArray(data)) throw new Error(`${path}: a list of mutants is expected`);
  return data.map((item: unknown, index) => {
    const entry = item as Record<string, unknown>;
    const where = `${path}: entry ${index + 1}`;
    for (const field of ['file', 'mutator', 'original', 'replacement', 'reason'] as const) {
      if (typeof entry?.[field] !== 'string' || (field !== 'replacement' && entry[field] === '')) {
        throw new Error(`${where}: "${field}" must be a${field === 'replacement' ? '' : ' non-empty'} string`);
      }
    }
    if (!Number.isInteger(entry.line) || (entry.line as number) < 1) throw new Error(`${where}: "line" must be a line number`);
    return entry as unknown as EquivalentMutant;
  });
}
