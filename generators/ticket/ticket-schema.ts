// The SsoTicketRequest schema of specs/ at both levels, walked by field path. Field paths are
// written "enabled_organizations[].organization_id": "[]" stands for any item of an array.
import { schema, type JsonObject, type Level } from '../../specs/index.ts';
import { typesOfNode, type JsonType } from '../json/json-type.ts';

export const ANY_ITEM = '[]';

const roots: Record<Level, JsonObject> = {
  contract: schema('SsoTicketRequest', 'contract'),
  observed: schema('SsoTicketRequest', 'observed'),
};

/** "a[].b" → ["a", "[]", "b"]. */
export function parseFieldPath(field: string): string[] {
  if (field === '') return [];
  return field.split('.').flatMap(function segmentsOfPart(part) {
    const items = /(\[\])*$/.exec(part)![0];
    const name = part.slice(0, part.length - items.length);
    return [name, ...Array<string>(items.length / ANY_ITEM.length).fill(ANY_ITEM)];
  });
}

/** ["a", "[]", "b"] → "a[].b". */
export function formatFieldPath(path: readonly string[]): string {
  return path.reduce(function joined(field, segment) {
    if (segment === ANY_ITEM) return field + ANY_ITEM;
    return field === '' ? segment : `${field}.${segment}`;
  }, '');
}

/** The JSON Schema node of a field at a level; throws when the schema has no such field. */
export function ticketSchemaAt(level: Level, path: readonly string[]): JsonObject {
  let node = roots[level];
  for (const segment of path) {
    const next = segment === ANY_ITEM ? node.items : (node.properties as JsonObject | undefined)?.[segment];
    if (next === undefined || next === null || typeof next !== 'object') {
      throw new Error(`SsoTicketRequest (${level}) has no field ${formatFieldPath(path)}`);
    }
    node = next as JsonObject;
  }
  return node;
}

/** The types a field accepts at either level: a value of another type is wrong at both. */
export function acceptedTypesAt(path: readonly string[]): JsonType[] {
  const types = new Set([...typesOfNode(ticketSchemaAt('contract', path)), ...typesOfNode(ticketSchemaAt('observed', path))]);
  return [...types];
}

/** Property names the schema knows for the object at a path. */
export function propertyNamesAt(level: Level, path: readonly string[]): string[] {
  return Object.keys((ticketSchemaAt(level, path).properties as JsonObject | undefined) ?? {});
}

/** A numeric keyword of a field's node (minLength, maximum, minItems, ...); throws when absent. */
export function keywordAt(level: Level, path: readonly string[], keyword: string): number {
  const value = ticketSchemaAt(level, path)[keyword];
  if (typeof value !== 'number') throw new Error(`SsoTicketRequest (${level}) ${formatFieldPath(path)} has no ${keyword}`);
  return value;
}

/** The enum of a field's node at a level; throws when absent. */
export function enumAt(level: Level, path: readonly string[]): string[] {
  const values = ticketSchemaAt(level, path).enum;
  if (!Array.isArray(values)) throw new Error(`SsoTicketRequest (${level}) ${formatFieldPath(path)} has no enum`);
  return values as string[];
}

/** The inclusive numeric range of a field at both levels together (minimum, maximum). */
export function numericRangeAt(path: readonly string[]): { min?: number; max?: number } {
  const nodes = [ticketSchemaAt('contract', path), ticketSchemaAt('observed', path)];
  const minimums = nodes.map((node) => node.minimum).filter(isNumber);
  const maximums = nodes.map((node) => node.maximum).filter(isNumber);
  return {
    ...(minimums.length > 0 ? { min: Math.max(...minimums) } : {}),
    ...(maximums.length > 0 ? { max: Math.min(...maximums) } : {}),
  };
}

function isNumber(value: unknown): value is number {
  return typeof value === 'number';
}
