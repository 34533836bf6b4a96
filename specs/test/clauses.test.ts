import { describe, expect, it } from 'vitest';
import {
  CLAUSE_ID_PATTERN,
  boundsAt,
  clause,
  clauseTag,
  clauses,
  createAjv,
  operationKeys,
  parseClauseTag,
  registryFile,
  statements,
} from '../index.ts';

const SECTIONS = ['1', '2.1', '2.2', '2.3', '2.4', '3', '4', '4.1', '4.2', '4.3', '4.4', '5', '6', '7', '8', '9'];

/** "has this property", spelled so that ajv's strict mode knows the property. */
const needs = (name: string) => ({ required: [name], properties: { [name]: true } });

/** The shape of clauses.yaml, checked with ajv like every other piece of contract data. */
const registrySchema = {
  type: 'object',
  required: ['statements', 'clauses'],
  additionalProperties: false,
  properties: {
    statements: {
      type: 'array',
      items: {
        type: 'object',
        required: ['id', 'section', 'text'],
        additionalProperties: false,
        properties: {
          id: { type: 'string', pattern: '^(s5|s7|s8|ns)\\.' },
          section: { enum: SECTIONS },
          text: { type: 'string', minLength: 1 },
        },
      },
    },
    clauses: {
      type: 'array',
      items: {
        type: 'object',
        required: ['id', 'section', 'level', 'summary'],
        additionalProperties: false,
        properties: {
          id: { type: 'string', pattern: CLAUSE_ID_PATTERN.source },
          section: { enum: SECTIONS },
          level: { enum: ['contract', 'observed', 'gap'] },
          strength: { enum: ['rec', 'doc', 'sdk', 'inf'] },
          summary: { type: 'string', minLength: 10 },
          covers: { type: 'array', items: { type: 'string' }, minItems: 1 },
          testable: { const: false },
          reason: { type: 'string', minLength: 10 },
          operations: { type: 'array', items: { enum: [...operationKeys] }, minItems: 1 },
          limit: {
            type: 'object',
            required: ['location', 'kind'],
            additionalProperties: false,
            properties: {
              location: { type: 'object' },
              kind: { enum: ['length', 'value'] },
              min: { type: 'integer' },
              max: { type: 'integer' },
            },
          },
        },
        allOf: [
          { if: { properties: { level: { const: 'observed' } } }, then: needs('strength') },
          { if: { properties: { level: { const: 'contract' } } }, then: { not: needs('strength') } },
          { if: needs('testable'), then: needs('reason') },
          { if: needs('reason'), then: needs('testable') },
        ],
      },
    },
  },
};

describe('clause registry', () => {
  it('matches the registry schema', () => {
    const check = createAjv().compile(registrySchema);
    expect(check(registryFile), JSON.stringify(check.errors)).toBe(true);
  });

  it('refuses an entry with a malformed id (the schema can fail)', () => {
    const check = createAjv().compile(registrySchema);
    const broken = structuredClone(registryFile);
    broken.clauses[0]!.id = 'Versioning Base Path';
    expect(check(broken)).toBe(false);
  });

  it('has unique clause ids', () => {
    const ids = clauses.map((c) => c.id);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
  });

  it('has unique statement ids', () => {
    const ids = statements.map((s) => s.id);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
  });

  it('has well-formed clause ids', () => {
    expect(clauses.filter((c) => !CLAUSE_ID_PATTERN.test(c.id)).map((c) => c.id)).toEqual([]);
    expect(CLAUSE_ID_PATTERN.test('redeliver.path.event_id.length')).toBe(true);
    expect(CLAUSE_ID_PATTERN.test('Redeliver.path')).toBe(false);
    expect(CLAUSE_ID_PATTERN.test('redeliver')).toBe(false);
  });

  it('covers every statement with at least one clause', () => {
    const covered = new Set(clauses.flatMap((c) => c.covers));
    expect(statements.filter((s) => !covered.has(s.id)).map((s) => s.id)).toEqual([]);
  });

  it('cites only statements that exist', () => {
    const known = new Set(statements.map((s) => s.id));
    const cited = clauses.flatMap((c) => c.covers.map((s) => `${c.id} -> ${s}`));
    expect(cited.filter((line) => !known.has(line.split(' -> ')[1]!))).toEqual([]);
  });

  it('lists the six numbered rules of section 5', () => {
    expect(statements.filter((s) => s.id.startsWith('s5.')).map((s) => s.id)).toEqual([
      's5.rule1',
      's5.rule2',
      's5.rule3',
      's5.rule4',
      's5.rule5',
      's5.rule6',
    ]);
  });

  it('lists the eight conditions of the section 7 error table', () => {
    expect(statements.filter((s) => s.id.startsWith('s7.')).map((s) => s.id)).toEqual([
      's7.401.invalid-token',
      's7.401.signature',
      's7.401.not-global',
      's7.403',
      's7.404.stream',
      's7.404.event',
      's7.409',
      's7.429',
    ]);
  });

  it('lists the ten limits of section 8', () => {
    expect(statements.filter((s) => s.id.startsWith('s8.')).length).toBe(10);
  });

  it('answers every "not shown" of the spec, sixteen of them', () => {
    expect(statements.filter((s) => s.id.startsWith('ns.')).length).toBe(16);
    for (const entry of clauses.filter((c) => c.covers.some((s) => s.startsWith('ns.')))) {
      expect(entry.level, entry.id).not.toBe('contract');
    }
  });

  it('records bounds for every length or value limit of section 8', () => {
    const limitStatements = statements.filter((s) => s.id.startsWith('s8.') && s.id !== 's8.rate-limit-headers');
    for (const statement of limitStatements) {
      const withBounds = clauses.filter((c) => c.covers.includes(statement.id) && c.limit);
      expect(withBounds.length, statement.id).toBeGreaterThan(0);
    }
  });

  it('agrees with openapi.yaml on every limit', () => {
    const limited = clauses.filter((c) => c.limit);
    expect(limited.length).toBeGreaterThanOrEqual(10);
    for (const entry of limited) {
      const { location, kind, min, max } = entry.limit!;
      const expected = { kind, ...(min === undefined ? {} : { min }), ...(max === undefined ? {} : { max }) };
      expect(boundsAt(location, kind), entry.id).toEqual(expected);
    }
  });

  it('marks gaps untestable and gives every untestable clause a reason', () => {
    for (const entry of clauses) {
      if (entry.level === 'gap') expect(entry.testable, entry.id).toBe(false);
      if (!entry.testable && entry.level !== 'gap') expect(entry.reason, entry.id).toBeTruthy();
    }
  });

  it('writes and reads the title tag of a clause', () => {
    const tag = clauseTag('redeliver.path.id.length');
    expect(tag).toBe('[§8 redeliver.path.id.length]');
    expect(parseClauseTag(`${tag} redeliver refuses a 25-character stream id`)).toEqual({
      section: '8',
      id: 'redeliver.path.id.length',
    });
    expect(parseClauseTag('redeliver refuses a 25-character stream id')).toBeUndefined();
    expect(() => clause('no.such-clause')).toThrow(/unknown clause id/);
  });
});
