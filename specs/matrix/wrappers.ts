// Value wrappers: the closed list of ways to write a JSON value inside another JSON value that a
// lenient reader unwraps back into it. Each is another type, so wherever the spec or the reference
// holds a JSON value to its type (a body field, a claim or a header member of the token, a field of
// a JSON token request), a target that unwraps one has let a near miss through: a reader that
// takes a list of one for its item, casts an object to its values (PHP's (array), Object.values),
// reads Avro's, MongoDB's or DynamoDB's JSON, passes the value to a query as it came, reads Jackson's
// typed wrapper array, or a bridge from XML that keeps a text node.
//
// The list is one, like the text equivalents (equivalents.ts): every JSON-typed element is varied
// by each entry that wraps its value, and a project test holds every family to it, so that a
// wrapper added here reaches every such element instead of the one whose fault showed the gap.
// Families that had a row of a wrapper before this list name it by their own key; an entry's
// aliases are those keys.
import type { OperatorId } from './operators.ts';

export interface ValueWrapper {
  key: string;
  /** Read after the element's label: what the value becomes. */
  says: (value: unknown) => string;
  /** The lenient reader that takes it for the value. */
  unwrappedBy: string;
  operator: OperatorId;
  /** Whether it wraps a value of this kind (a string, a number, a boolean). */
  wraps: (value: unknown) => boolean;
  wrap: (value: unknown) => unknown;
  /**
   * That reader at its narrowest: the value a wrapper of this entry holds, or NOT_WRAPPED for
   * anything this entry does not make, so that a fault built on it is caught by this entry's rows
   * alone. None where the wrapper holds no value (a query operator matching any).
   */
  unwrap?: (json: unknown) => unknown;
  /** Keys of families' rows of this same wrapper, made before this list. */
  aliases: readonly string[];
}

/** What `unwrap` answers for a value its entry did not make. */
export const NOT_WRAPPED: unique symbol = Symbol('not wrapped');

type Json = Record<string, unknown>;
const isScalar = (value: unknown): boolean => ['string', 'number', 'boolean'].includes(typeof value);
const isList = (value: unknown): value is unknown[] => Array.isArray(value);
const isObject = (value: unknown): value is Json => value !== null && typeof value === 'object' && !Array.isArray(value);
/** The one member of an object that has exactly one, named `name` (any name where none is given). */
function soleMember(json: unknown, name?: (key: string) => boolean): unknown {
  if (!isObject(json)) return NOT_WRAPPED;
  const keys = Object.keys(json);
  return keys.length === 1 && (name === undefined || name(keys[0]!)) ? json[keys[0]!] : NOT_WRAPPED;
}

/** The Avro type a scalar is written as in a union branch: string, int or double, boolean. */
export function avroTypeOf(value: unknown): string | undefined {
  if (typeof value === 'string') return 'string';
  if (typeof value === 'number') return Number.isInteger(value) ? 'int' : 'double';
  if (typeof value === 'boolean') return 'boolean';
  return undefined;
}

/** DynamoDB's attribute-value type of a scalar: S, N (written as a string), BOOL. */
function attributeOf(value: unknown): [string, unknown] | undefined {
  if (typeof value === 'string') return ['S', value];
  if (typeof value === 'number') return ['N', String(value)];
  if (typeof value === 'boolean') return ['BOOL', value];
  return undefined;
}

/** The Java class Jackson's default typing names a scalar by. */
function javaClassOf(value: unknown): string {
  if (typeof value === 'string') return 'java.lang.String';
  if (typeof value === 'boolean') return 'java.lang.Boolean';
  return Number.isInteger(value) ? 'java.lang.Integer' : 'java.lang.Double';
}

const json = (value: unknown): string => JSON.stringify(value);

export const VALUE_WRAPPERS: readonly ValueWrapper[] = [
  {
    key: 'list-holding-it',
    says: (v) => `a list holding the value ([${json(v)}])`,
    unwrappedBy: 'a reader that takes a list of one for its item',
    operator: 'other-type',
    wraps: isScalar,
    wrap: (v) => [v],
    unwrap: (j) => (isList(j) && j.length === 1 && isScalar(j[0]) ? j[0] : NOT_WRAPPED),
    aliases: ['list', 'list-in-json'],
  },
  {
    key: 'object-holding-it',
    says: (v) => `an object holding the value as its one member ({"value": ${json(v)}})`,
    unwrappedBy: "a cast of an object to its values (PHP's (array), Object.values)",
    operator: 'other-type',
    wraps: isScalar,
    wrap: (v) => ({ value: v }),
    unwrap: (j) => soleMember(j, (name) => name === 'value' || name === 'id'),
    aliases: [],
  },
  {
    key: 'avro-union',
    says: (v) => `the value as an Avro union branch ({"${avroTypeOf(v)}": ${json(v)}})`,
    unwrappedBy: "a bridge that reads Avro's JSON encoding",
    operator: 'other-type',
    wraps: (v) => avroTypeOf(v) !== undefined,
    wrap: (v) => ({ [avroTypeOf(v)!]: v }),
    unwrap: (j) => soleMember(j, (name) => ['string', 'int', 'long', 'double', 'float', 'boolean'].includes(name)),
    aliases: [],
  },
  {
    key: 'attribute-value',
    says: (v) => `the value as a DynamoDB attribute value (${json(Object.fromEntries([attributeOf(v)!]))})`,
    unwrappedBy: "a reader of DynamoDB's attribute values (unmarshall)",
    operator: 'other-type',
    wraps: (v) => attributeOf(v) !== undefined,
    wrap: (v) => Object.fromEntries([attributeOf(v)!]),
    unwrap: (j) => {
      if (!isObject(j)) return NOT_WRAPPED;
      if (typeof j.S === 'string' && Object.keys(j).length === 1) return j.S;
      if (typeof j.N === 'string' && Object.keys(j).length === 1) return Number(j.N);
      if (typeof j.BOOL === 'boolean' && Object.keys(j).length === 1) return j.BOOL;
      return NOT_WRAPPED;
    },
    aliases: ['attribute-value-number'],
  },
  {
    key: 'extended-json',
    says: (v) => `the number in MongoDB's Extended JSON ({"${Number.isInteger(v) ? '$numberInt' : '$numberDouble'}": "${String(v)}"})`,
    unwrappedBy: "a reader of MongoDB's Extended JSON (EJSON.parse)",
    operator: 'other-type',
    wraps: (v) => typeof v === 'number',
    wrap: (v) => ({ [Number.isInteger(v) ? '$numberInt' : '$numberDouble']: String(v) }),
    unwrap: (j) => {
      const held = soleMember(j, (name) => ['$numberInt', '$numberLong', '$numberDouble'].includes(name));
      return typeof held === 'string' ? Number(held) : NOT_WRAPPED;
    },
    aliases: ['extended-json-number'],
  },
  {
    key: 'operator-eq',
    says: (v) => `a MongoDB query operator object matching the value ({"$eq": ${json(v)}})`,
    unwrappedBy: 'a document store queried with the value as it came (an operator injection)',
    operator: 'other-type',
    wraps: isScalar,
    wrap: (v) => ({ $eq: v }),
    unwrap: (j) => soleMember(j, (name) => name === '$eq'),
    aliases: [],
  },
  {
    key: 'operator-in',
    says: (v) => `a MongoDB query operator object listing the value ({"$in": [${json(v)}]})`,
    unwrappedBy: 'a document store queried with the value as it came (an operator injection)',
    operator: 'other-type',
    wraps: isScalar,
    wrap: (v) => ({ $in: [v] }),
    unwrap: (j) => {
      const held = soleMember(j, (name) => name === '$in');
      return isList(held) && held.length === 1 ? held[0] : NOT_WRAPPED;
    },
    aliases: [],
  },
  {
    key: 'operator-ne',
    says: () => 'a MongoDB query operator object matching any value ({"$ne": null})',
    unwrappedBy: 'a document store queried with the value as it came (an operator injection)',
    operator: 'other-type',
    wraps: (v) => typeof v === 'string',
    wrap: () => ({ $ne: null }),
    aliases: ['operator-ne-in-json'],
  },
  {
    key: 'typed-wrapper-array',
    says: (v) => `Jackson's typed wrapper array (["${javaClassOf(v)}", ${json(v)}])`,
    unwrappedBy: 'Jackson with default typing as a wrapper array (activateDefaultTyping)',
    operator: 'other-type',
    wraps: isScalar,
    wrap: (v) => [javaClassOf(v), v],
    unwrap: (j) =>
      isList(j) && j.length === 2 && typeof j[0] === 'string' && j[0].startsWith('java.lang.') && isScalar(j[1]) ? j[1] : NOT_WRAPPED,
    aliases: [],
  },
  {
    key: 'parse-pointer',
    says: (v) => `a Parse Pointer to the value ({"__type": "Pointer", "className": "Object", "objectId": ${json(v)}})`,
    unwrappedBy: "Parse Server's Parse._decode, which turns a Pointer into an object whose id is read",
    operator: 'other-type',
    wraps: (v) => typeof v === 'string',
    wrap: (v) => ({ __type: 'Pointer', className: 'Object', objectId: v }),
    unwrap: (j) =>
      j !== null && typeof j === 'object' && !Array.isArray(j) && (j as Record<string, unknown>).__type === 'Pointer'
        ? ((j as Record<string, unknown>).objectId ?? NOT_WRAPPED)
        : NOT_WRAPPED,
    aliases: [],
  },
  {
    key: 'xml-text-node',
    says: (v) => `an XML text node holding the value ({"#text": ${json(v)}})`,
    unwrappedBy: 'a body bridged from XML whose reader keeps text nodes (fast-xml-parser, xml2js)',
    operator: 'other-type',
    wraps: isScalar,
    wrap: (v) => ({ '#text': v }),
    unwrap: (j) => soleMember(j, (name) => name === '#text' || name === '_'),
    aliases: [],
  },
];

/** A token request's key of a wrapper: the field wrapped in a JSON request. */
export const inJsonKey = (entry: ValueWrapper): string => `${entry.key}-in-json`;

/** Whether a family's rows of an element (by their keys) hold an entry of the list. */
export function hasWrapper(keys: Iterable<string>, entry: ValueWrapper): boolean {
  const have = new Set(keys);
  return [entry.key, inJsonKey(entry), ...entry.aliases].some((key) => have.has(key));
}

/** The entries that wrap a value like `sample` and that a family's rows (by their keys) do not hold yet. */
export function wrappersFor(present: readonly string[], sample: unknown): ValueWrapper[] {
  return VALUE_WRAPPERS.filter((entry) => entry.wraps(sample) && !hasWrapper(present, entry));
}

/** The entry of the list by its key. */
export function wrapper(key: string): ValueWrapper {
  const found = VALUE_WRAPPERS.find((entry) => entry.key === key);
  if (!found) throw new Error(`no value wrapper "${key}"`);
  return found;
}
