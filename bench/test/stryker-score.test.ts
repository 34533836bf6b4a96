import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { figuresOf, loadEquivalents, type EquivalentMutant, type Mutant } from '../stryker/score.ts';

const mutant = (line: number, status: Mutant['status'], replacement = 'true'): Mutant => ({
  file: 'mock/rate-limiter.ts',
  line,
  column: 9,
  mutator: 'ConditionalExpression',
  original: 'now > updatedAt',
  replacement,
  status,
});

const entry = (line: number, replacement = 'true'): EquivalentMutant => ({
  file: 'mock/rate-limiter.ts',
  line,
  mutator: 'ConditionalExpression',
  original: 'now > updatedAt',
  replacement,
  reason: 'at equal times nothing is added either way',
});

describe('figuresOf', () => {
  it('scores detected (killed, timed out) over detected and undetected, leaving out mutants that did not compile or crashed', () => {
    const figures = figuresOf(
      [
        mutant(1, 'Killed'),
        mutant(2, 'Timeout'),
        mutant(3, 'Survived'),
        mutant(4, 'NoCoverage'),
        mutant(5, 'RuntimeError'),
        mutant(6, 'CompileError'),
      ],
      [],
    );
    expect(figures).toMatchObject({ total: 6, detected: 2, valid: 4, score: 50, nonEquivalentScore: 50 });
    expect(figures.survivors.map((m) => m.line)).toEqual([3, 4]);
  });

  it('leaves the undetected mutants listed as equivalent out of the non-equivalent score and the survivors', () => {
    const figures = figuresOf([mutant(1, 'Killed'), mutant(10, 'Survived'), mutant(20, 'Survived', 'false')], [entry(10)]);
    expect(figures.score).toBeCloseTo(100 / 3);
    expect(figures.nonEquivalentScore).toBe(50);
    expect(figures.equivalent.map((e) => e.mutant.line)).toEqual([10]);
    expect(figures.survivors.map((m) => m.replacement)).toEqual(['false']);
  });

  it('finds an entry whose line moved, taking the nearest of several alike, each mutant once', () => {
    const figures = figuresOf([mutant(14, 'Survived'), mutant(40, 'Survived'), mutant(90, 'Survived')], [entry(12), entry(44)]);
    expect(figures.equivalent.map((e) => [e.entry.line, e.mutant.line])).toEqual([
      [12, 14],
      [44, 40],
    ]);
    expect(figures.survivors.map((m) => m.line)).toEqual([90]);
  });

  it('reports an entry that matches no undetected mutant as stale, and says when a test now kills it', () => {
    const figures = figuresOf([mutant(10, 'Killed')], [entry(10), entry(30, 'false')]);
    expect(figures.equivalent).toEqual([]);
    expect(figures.stale.map((s) => [s.entry.replacement, s.killedAs?.status])).toEqual([
      ['true', 'Killed'],
      ['false', undefined],
    ]);
    expect(figures.nonEquivalentScore).toBe(100);
  });

  it('ignores the entries of files outside the run', () => {
    const figures = figuresOf([mutant(10, 'Survived')], [{ ...entry(10), file: 'mock/validators.ts' }]);
    expect(figures.stale).toEqual([]);
    expect(figures.survivors).toHaveLength(1);
  });

  it('has no score without a valid mutant', () => {
    expect(figuresOf([mutant(1, 'CompileError')], []).score).toBeUndefined();
  });
});

describe('loadEquivalents', () => {
  const dir = mkdtempSync(join(tmpdir(), 'equivalents-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const file = (name: string, text: string) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };

  it('reads the entries of the list', () => {
    const path = file(
      'ok.yaml',
      '- { file: mock/rate-limiter.ts, line: 39, mutator: EqualityOperator, original: now > updatedAt, replacement: now >= updatedAt, reason: nothing is added at equal times }\n',
    );
    expect(loadEquivalents(path)).toEqual([
      {
        file: 'mock/rate-limiter.ts',
        line: 39,
        mutator: 'EqualityOperator',
        original: 'now > updatedAt',
        replacement: 'now >= updatedAt',
        reason: 'nothing is added at equal times',
      },
    ]);
  });

  it('names the entry and the field of an entry without its reason', () => {
    const path = file('bad.yaml', '- { file: mock/a.ts, line: 3, mutator: X, original: a, replacement: b }\n');
    expect(() => loadEquivalents(path)).toThrow(/entry 1: "reason" must be a non-empty string/);
  });

  it('refuses a line that is not a line number', () => {
    const path = file('line.yaml', '- { file: mock/a.ts, line: zero, mutator: X, original: a, replacement: b, reason: r }\n');
    expect(() => loadEquivalents(path)).toThrow(/entry 1: "line" must be a line number/);
  });
});
