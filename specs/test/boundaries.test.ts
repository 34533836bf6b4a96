// Runs boundaries.yaml: every limit and every field type of the contract, both sides spelled out.
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import {
  compileNode,
  describeErrors,
  schemaAt,
  toJsonSchema,
  validator,
  type JsonObject,
  type Level,
  type LimitLocation,
} from '../index.ts';

interface Case {
  description: string;
  data?: unknown;
  patch?: JsonObject;
  valid: boolean;
}
interface Group {
  description: string;
  location?: LimitLocation;
  schema?: string;
  base?: string;
  level?: Level;
  tests: Case[];
}
interface BoundaryFile {
  bases: Record<string, unknown>;
  groups: Group[];
}

const file = parse(readFileSync(new URL('./boundaries.yaml', import.meta.url), 'utf8')) as BoundaryFile;

/** Expands { $string: N } placeholders into strings of N characters (starting with `prefix` when given). */
function expand(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(expand);
  if (value !== null && typeof value === 'object') {
    const object = value as JsonObject;
    if (typeof object.$string === 'number') {
      const prefix = typeof object.prefix === 'string' ? object.prefix : '';
      return prefix + 'x'.repeat(object.$string - prefix.length);
    }
    return Object.fromEntries(Object.entries(object).map(([k, v]) => [k, expand(v)]));
  }
  return value;
}

function applyPatch(base: unknown, patch: JsonObject): unknown {
  const copy = structuredClone(base) as JsonObject;
  for (const [key, value] of Object.entries(patch)) {
    if (value !== null && typeof value === 'object' && (value as JsonObject).$delete === true) delete copy[key];
    else copy[key] = expand(value);
  }
  return copy;
}

function instanceOf(group: Group, test: Case): unknown {
  if (!group.base) return expand(test.data);
  const base = file.bases[group.base];
  if (base === undefined) throw new Error(`unknown base ${group.base}`);
  return applyPatch(base, test.patch ?? {});
}

function validate(group: Group, instance: unknown) {
  const level = group.level ?? 'contract';
  const check = group.location ? compileNode(schemaAt(group.location), level) : validator(group.schema!, level);
  const valid = check(instance);
  return { valid, errors: describeErrors(check.errors) };
}

for (const group of file.groups) {
  describe(`${group.description} (${group.level ?? 'contract'})`, () => {
    for (const test of group.tests) {
      it(test.description, () => {
        const result = validate(group, instanceOf(group, test));
        expect(result.valid, result.errors).toBe(test.valid);
      });
    }
  });
}

/** Dotted paths of every property a schema declares, items written as []. */
function propertyPaths(node: JsonObject, prefix = ''): string[] {
  const out: string[] = [];
  const properties = (node.properties ?? {}) as Record<string, JsonObject>;
  for (const [name, sub] of Object.entries(properties)) {
    const path = prefix + name;
    out.push(path);
    out.push(...propertyPaths(sub, `${path}.`));
    if (sub.items) out.push(...propertyPaths(sub.items as JsonObject, `${path}[].`));
  }
  return out;
}

/** Dotted paths a patch touches, in the same notation. */
function touchedPaths(value: unknown, prefix = ''): string[] {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return [];
  return Object.entries(value as JsonObject).flatMap(([key, sub]) => {
    const path = prefix + key;
    const nested = Array.isArray(sub) ? sub.flatMap((item) => touchedPaths(item, `${path}[].`)) : touchedPaths(sub, `${path}.`);
    return [path, ...nested];
  });
}

describe('coverage of the boundary data', () => {
  for (const schemaName of ['FlowsVaultConnection', 'SsoTicketRequest', 'SsoTicket']) {
    it(`puts a wrong value in every field of ${schemaName} (sections 2.1, 2.3, 4.2)`, () => {
      const declared = propertyPaths(toJsonSchema({ $ref: `#/components/schemas/${schemaName}` }, 'contract'));
      const refused = new Set(
        file.groups
          .filter((g) => g.schema === schemaName && (g.level ?? 'contract') === 'contract')
          .flatMap((g) => g.tests.filter((t) => !t.valid).flatMap((t) => touchedPaths(t.patch ?? {}))),
      );
      expect(declared.length).toBeGreaterThan(0);
      expect(declared.filter((path) => !refused.has(path))).toEqual([]);
    });
  }
});
