// The body and each of its fields at every depth. A variation is judged by the body it makes,
// validated at both levels: one the contract's schema refuses is refused (the clause of the keyword
// it breaks: the field's type, a range, the body's object type) and answered 400 invalid_body by the
// real service; one only the observed schema refuses is answered 400 invalid_body (the published
// rules); one both accept creates a ticket, but for a changed id, whose resource may not exist.
import type { ClauseCheck, OperationCard, RequestTemplate } from '../../cards/card.ts';
import { clauses, hasClause } from '../../clauses.ts';
import type { JsonObject } from '../../openapi.ts';
import { createAjv, schema, validator } from '../../schemas.ts';
import { accepted, observedError, refused } from '../checks.ts';
import { fieldName, type Element } from '../elements.ts';
import { expectsRefusal, type Expectation, type Variant } from '../row.ts';
import { alphabetOf, observed, shapeOfFormat } from '../../observed.ts';
import {
  ABSENT,
  aloneBody,
  canonicalContext,
  jsonBodyOf,
  schemaAt,
  validTemplate,
  validValueAt,
  valueAt,
  withBody,
  withValueAt,
  withValueAfterValidItems,
  type RequestContext,
} from '../template.ts';
import { idOfLength, nameNearMisses, swapCase } from '../values.ts';
import { TEXT_EQUIVALENTS, variedFrom, type TextEquivalent } from '../equivalents.ts';
import { wrappersFor } from '../wrappers.ts';
import type { ErrorObject, ValidateFunction } from 'ajv';

/** How many valid items come before the one of another type, in the row that checks every item is checked. */
const MANY_ITEMS = 50;

type Made = Variant & { expect: Expectation };
type JsonType = 'string' | 'integer' | 'number' | 'boolean' | 'array' | 'object' | 'null';

const invalidBody: ClauseCheck = { clause: 'errors.400.body', outcome: observedError('invalid_body') };

/** The types a node names (none: any). */
function typesOf(node: JsonObject | undefined): JsonType[] {
  const type = node?.type;
  if (type === undefined) return [];
  return (Array.isArray(type) ? type : [type]) as JsonType[];
}

/** The contract clause a validation error breaks: the keyword's clause at its field, or the nearest field above that has one. */
function contractClauseOf(card: OperationCard, error: ErrorObject): string {
  const steps = error.instancePath
    .split('/')
    .slice(1)
    .map((step) => (/^\d+$/.test(step) ? '[]' : step.replace(/~1/g, '/').replace(/~0/g, '~')));
  if (steps.length === 0) return card.body!.objectClause;
  if (error.keyword === 'minimum' || error.keyword === 'maximum') {
    const limit = clauses.find((c) => c.limit?.location.operation === card.key && c.limit.location.property === steps.join('.'));
    if (limit) return limit.id;
  }
  for (let depth = steps.length; depth > 0; depth -= 1) {
    const field = fieldName(steps.slice(0, depth)).replace(/\[\]/g, '');
    const id = `${card.key}.body.${field}.type`;
    if (hasClause(id)) return id;
  }
  return card.body!.objectClause;
}

/** The limit clause of a body field, where the registry has one. */
function limitClauseOf(card: OperationCard, element: Element): string | undefined {
  const property = element.path!.join('.');
  return clauses.find(
    (c) => c.limit?.location.operation === card.key && c.limit.location.in === 'body' && c.limit.location.property === property,
  )?.id;
}

/** What a body gets, by its validity at both levels (see the file's head). */
export function bodyExpectation(
  card: OperationCard,
  element: Element,
  body: unknown,
  options: { identityChanged: boolean; bound: boolean },
): Expectation {
  const name = card.body!.schema;
  const observedValid = validator(name, 'observed')(body);
  const contract = validator(name, 'contract');
  if (!contract(body)) {
    const clause = contractClauseOf(card, contract.errors![0]!);
    // The spec refuses it, the real service takes it (its published rules allow it): the contract
    // lets a target refuse it, and the observed level asks for the real service's acceptance.
    if (observedValid)
      return {
        checks: [{ clause: card.body!.rulesClause, outcome: accepted }],
        source: `the real service's rules allow it (observed), though the spec's types refuse it (${clause}): only the observed level asks`,
      };
    return { checks: [{ clause, outcome: refused }, invalidBody], source: `the spec's type or bound (${clause})` };
  }
  if (!observedValid) {
    return {
      checks: [{ clause: card.body!.rulesClause, outcome: observedError('invalid_body') }],
      source: 'the published rules of the body (observed)',
    };
  }
  if (options.identityChanged) return { none: `whether the service checks that ${element.label} names an existing resource is not known` };
  const bound = options.bound ? limitClauseOf(card, element) : undefined;
  const clause = bound ?? (element.schemas?.contract ? card.body!.optionalClause : card.body!.rulesClause);
  return { checks: [{ clause, outcome: accepted }], source: 'valid at both levels' };
}

/** An array's first item sent bare, in the array's place (an object, a string...). */
function bareItem(valid: unknown): { type: JsonType; value: unknown; says: string } {
  const item: unknown = Array.isArray(valid) && valid.length > 0 ? valid[0] : 'x';
  const type: JsonType =
    item === null
      ? 'null'
      : Array.isArray(item)
        ? 'array'
        : typeof item === 'object'
          ? 'object'
          : typeof item === 'number'
            ? 'number'
            : typeof item === 'boolean'
              ? 'boolean'
              : 'string';
  return { type, value: item, says: 'one bare item' };
}

/** A value of another JSON type; `key` names its row where the type alone would not. */
interface OtherType {
  type: JsonType;
  value: unknown;
  says: string;
  key?: string;
}

/** A value of each JSON type the field does not accept (null apart: its own operator), the closest wrong one first. */
function otherTypes(accepted: JsonType[], valid: unknown): OtherType[] {
  const accepts = (type: JsonType) => accepted.includes(type) || (type === 'integer' && accepted.includes('number'));
  const digits = typeof valid === 'number' ? String(valid) : '3600';
  // A fraction next to the valid value: wrong in its type only, whatever bound the field has.
  const fraction = typeof valid === 'number' ? valid + 0.5 : 1.5;
  // The closest wrong value: the one a lenient server is most likely to take for the right one.
  const closestOf: Partial<Record<JsonType, OtherType>> = {
    integer: { type: 'string', value: digits, says: `the string "${digits}"` },
    number: { type: 'string', value: digits, says: `the string "${digits}"` },
    boolean: { type: 'string', value: 'true', says: 'the string "true"' },
    string: { type: 'integer', value: 1, says: 'the number 1' },
    array: bareItem(valid),
    object: { type: 'array', value: [valid ?? {}], says: 'a list holding it', key: 'type-array' },
  };
  const first = accepted.find((type) => type !== 'null');
  const closest = first === undefined ? undefined : closestOf[first];
  const pool: OtherType[] = [
    { type: 'string', value: 'x', says: 'the string "x"' },
    { type: 'integer', value: 1, says: 'the number 1' },
    { type: 'number', value: fraction, says: `the number ${fraction}` },
    { type: 'boolean', value: true, says: 'true' },
    { type: 'array', value: [], says: 'an empty array' },
    { type: 'object', value: {}, says: 'an empty object' },
  ];
  const others = pool.filter((p) => p.type !== closest?.type && !accepts(p.type) && !(p.type === 'number' && accepted.includes('number')));
  // An object's closest wrong value is a list holding it; the empty list stays among the others.
  if (first === 'object') others.push({ type: 'array', value: [], says: 'an empty array', key: 'type-array-empty' });
  return closest ? [closest, ...others] : others;
}

/** Edits of a valid string that its field's pattern refuses, at either level. */
function patternNearMisses(element: Element, valid: unknown): Array<{ key: string; says: string; value: string }> {
  const patterns = [element.schemas?.contract?.pattern, element.schemas?.observed?.pattern].filter(
    (p): p is string => typeof p === 'string',
  );
  if (patterns.length === 0 || typeof valid !== 'string' || valid.length === 0) return [];
  const separator = [...valid].find((c) => !/[\p{L}\p{N}]/u.test(c)) ?? '-';
  const edits = [
    { key: 'pattern-trailing-separator', says: `with "${separator}" after it`, value: `${valid}${separator}` },
    { key: 'pattern-leading-separator', says: `with "${separator}" before it`, value: `${separator}${valid}` },
    {
      key: 'pattern-doubled-separator',
      says: `with "${separator}" doubled`,
      value: valid.includes(separator)
        ? valid.replace(separator, separator.repeat(2))
        : `${valid[0]}${separator.repeat(2)}${valid.slice(1)}`,
    },
    { key: 'pattern-other-character', says: 'with "_" after it', value: `${valid}_` },
    // Characters outside ASCII of the classes a pattern names: a regular expression whose \d or \w
    // is Unicode-aware (.NET's without RegexOptions.ECMAScript, Python's re on str) takes them.
    { key: 'pattern-non-ascii-digit', says: 'with an Arabic-Indic digit three (U+0663) after it', value: `${valid}\u0663` },
    { key: 'pattern-non-ascii-letter', says: 'with "é" (U+00E9) after it', value: `${valid}\u00e9` },
    // The valid value, a line feed, then a value the pattern refuses: a pattern compiled with the
    // "m" flag (^ and $ at every line), or a check of the first line only, takes it for valid.
    {
      key: 'pattern-valid-line-then-invalid',
      says: 'as itself, a line feed, then a value its pattern refuses ("not a value!")',
      value: `${valid}\nnot a value!`,
    },
  ];
  return edits.filter(({ value }) => patterns.some((pattern) => !new RegExp(pattern, 'u').test(value)));
}

/** A string made to exactly `length` characters from a valid one (its alphabet kept where it has one). */
function stringOfLength(valid: unknown, length: number): string {
  const text = typeof valid === 'string' && valid.length > 0 ? valid : 'a';
  return length === 0 ? '' : idOfLength(text, length);
}

/** An array of exactly `count` items, distinct where the schema's enum allows. */
function arrayOfCount(valid: unknown, count: number, items: JsonObject | undefined): unknown[] {
  const choices: unknown[] = Array.isArray(items?.enum)
    ? (items.enum as unknown[])
    : Array.isArray(valid) && valid.length > 0
      ? (valid as unknown[])
      : ['x'];
  return Array.from({ length: count }, (_, i) => choices[i % choices.length]);
}

/** The bounds of a field at both levels, each with how to make a value of a given size. */
function boundsOf(element: Element, valid: unknown): Array<{ at: number; make: (n: number) => unknown; unit: string }> {
  const out: Array<{ at: number; make: (n: number) => unknown; unit: string }> = [];
  for (const node of schemaNodes(element)) {
    if (!node) continue;
    for (const keyword of ['minimum', 'maximum'] as const) {
      if (typeof node[keyword] === 'number') out.push({ at: node[keyword], make: (n) => n, unit: '' });
    }
    for (const keyword of ['minLength', 'maxLength'] as const) {
      if (typeof node[keyword] === 'number') out.push({ at: node[keyword], make: (n) => stringOfLength(valid, n), unit: ' characters' });
    }
    for (const keyword of ['minItems', 'maxItems'] as const) {
      if (typeof node[keyword] === 'number')
        out.push({ at: node[keyword], make: (n) => arrayOfCount(valid, n, node.items as JsonObject | undefined), unit: ' items' });
    }
    if (typeof node.maxProperties === 'number') {
      out.push({
        at: node.maxProperties,
        make: (n) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`key${i}`, 'value'])),
        unit: ' properties',
      });
    }
  }
  return out;
}

/**
 * The variations of a body field (its value at the field's path), or of the body itself.
 * Long: the body operators of the catalogue, one entry each, read top to bottom as `--list` prints them.
 */
export function bodyVariants(card: OperationCard, element: Element): Made[] {
  if (element.kind === 'body') return rootVariants(card, element);
  const path = element.path!;
  const valid = validValueAt(card, path, canonicalContext);
  const identity = card.body!.identities.includes(fieldName(path));
  const types = typesOf(element.schemas?.contract ?? element.schemas?.observed);
  const made = (
    operator: Made['operator'],
    key: string,
    says: string,
    change: (valid: unknown) => unknown,
    extra: Partial<Made> & {
      changesIdentity?: boolean;
      bound?: boolean;
      secondItem?: boolean;
      afterItems?: number;
      twinAfter?: boolean;
    } = {},
  ): Made => {
    const { changesIdentity = false, bound = false, secondItem = false, afterItems, twinAfter = false, ...rest } = extra;
    const apply = (template: RequestTemplate, context: RequestContext) => {
      const json = jsonBodyOf(template);
      const value = change(validValueAt(card, path, context));
      if (!secondItem && afterItems === undefined && !twinAfter) return withBody(template, { json: withValueAt(json, path, value) });
      const item = validValueAt(card, path.slice(0, path.indexOf('[]') + 1), context);
      if (twinAfter) return withBody(template, { json: withValueThenValidTwin(json, path, value, item) });
      return withBody(template, { json: withValueAfterValidItems(json, path, value, item, afterItems ?? 1) });
    };
    const judge = (varied: RequestTemplate, _context: RequestContext) =>
      bodyExpectation(card, element, jsonBodyOf(varied), { identityChanged: identity && changesIdentity, bound });
    return {
      operator,
      key,
      says,
      apply,
      judge,
      expect: judge(apply({ ...emptyTemplate(), body: { json: {} } }, canonicalContext), canonicalContext),
      ...rest,
    };
  };
  const variants: Made[] = [];
  const nested = path.length > 1;
  if (nested || element.required) variants.push(made('absent', 'absent', 'absent', () => ABSENT));
  // A required member of an object left out beside its sibling lists emptied: still missing, though
  // a validator that returns early for an object with nothing in it ("nothing pending, nothing to
  // check") never asks for it.
  if (nested && element.required && !path.includes('[]')) {
    const parent = path.slice(0, -1);
    variants.push({
      operator: 'absent',
      key: 'absent-beside-empty-lists',
      says: 'absent, its sibling lists empty',
      apply: (template) => {
        const json = withValueAt(jsonBodyOf(template), path, ABSENT);
        const holder = valueAt(json, parent);
        if (holder === null || typeof holder !== 'object' || Array.isArray(holder)) return withBody(template, { json });
        const emptied = Object.fromEntries(Object.entries(holder).map(([name, value]) => [name, Array.isArray(value) ? [] : value]));
        return withBody(template, { json: withValueAt(json, parent, emptied) });
      },
      judge: (varied) => bodyExpectation(card, element, jsonBodyOf(varied), { identityChanged: false, bound: false }),
      expect: { checks: [{ clause: 'errors.400.body', outcome: observedError('invalid_body') }], source: 'a required member left out' },
      extended: true,
    });
  }
  variants.push(made('null', 'null', 'null', () => null, nested ? { extended: true } : {}));
  if (types.includes('string'))
    variants.push(made('empty', 'empty', 'an empty string', () => '', { changesIdentity: true, extended: true }));
  if (types.includes('array')) variants.push(made('empty', 'empty', 'an empty array', () => [], { extended: true }));
  if (types.includes('object')) variants.push(made('empty', 'empty', 'an empty object', () => ({}), { extended: true }));
  // An empty string where no string is allowed: the empty value of the other kind, which the empty
  // object above does not make. A binder that reads "" as a null object (Jackson's
  // ACCEPT_EMPTY_STRING_AS_NULL_OBJECT, or its coercion of the empty string, a shape of its own, to
  // null for a number) takes it for absent, or for null where null is allowed.
  if (!types.includes('string')) {
    const kinds: Record<string, string> = {
      object: 'an object',
      array: 'a list',
      integer: 'an integer',
      number: 'a number',
      boolean: 'a boolean',
    };
    const kind = kinds[types.find((t) => t in kinds) ?? 'object']!;
    const tier = types.includes('object') && !nested ? {} : { extended: true };
    variants.push(made('empty', 'empty-string', `an empty string, where ${kind} goes`, () => '', tier));
  }
  otherTypes(types, valid).forEach((other, index) => {
    variants.push(
      made(
        'other-type',
        other.key ?? `type-${other.type}`,
        `of another type: ${other.says}`,
        () => other.value,
        index === 0 ? {} : { extended: true },
      ),
    );
  });
  // The closest wrong type again, in a second item after a valid one: a validator that reads only
  // an array's first item (a tuple schema, items[0]) takes the list for valid.
  const closestType = otherTypes(types, valid)[0];
  if (closestType && path.includes('[]')) {
    variants.push(
      made(
        'other-type',
        `${closestType.key ?? `type-${closestType.type}`}-second-item`,
        `of another type in a second item, after a valid one: ${closestType.says}`,
        () => closestType.value,
        { secondItem: true },
      ),
      // And after many valid ones: a check capped at a number of items (a bound on its work)
      // passes the list.
      made(
        'other-type',
        `${closestType.key ?? `type-${closestType.type}`}-after-${MANY_ITEMS}-items`,
        `of another type in an item after ${MANY_ITEMS} valid ones: ${closestType.says}`,
        () => closestType.value,
        { afterItems: MANY_ITEMS },
      ),
    );
    // In an item of a list of objects, followed by its valid twin (the same item, every other
    // member the same): a list de-duplicated by a key member before its items are checked keeps the
    // later one.
    if (path.indexOf('[]') < path.length - 1) {
      variants.push(
        made(
          'other-type',
          `${closestType.key ?? `type-${closestType.type}`}-then-valid-twin`,
          `of another type in an item followed by its valid twin: ${closestType.says}`,
          () => closestType.value,
          { twinAfter: true, extended: true },
        ),
      );
    }
  }
  // The valid value in a wrapper a lenient reader unwraps: a list holding it (for a value that is not
  // a list), an object holding it as its id (for an id). Each is another type, judged like any.
  if (valid !== null && typeof valid !== 'object' && !types.includes('array')) {
    variants.push(made('other-type', 'list-holding-it', 'a list holding the valid value', (v) => [v], { extended: !identity }));
  }
  if (identity && typeof valid === 'string') {
    variants.push(made('other-type', 'object-holding-it', 'an object holding the valid value as its id ({"id": ...})', (v) => ({ id: v })));
  }
  // The valid value as Avro's JSON encoding writes a union branch, {"<type>": value} (an optional
  // field is a union with null): another type, though a bridge that also reads Avro's JSON takes
  // it for the value.
  const avroType = avroTypeOf(valid);
  if (avroType !== undefined)
    variants.push(
      made(
        'other-type',
        'avro-union',
        `the valid value as an Avro union branch ({"${avroType}": ...})`,
        (v) => ({ [avroTypeOf(v) ?? avroType]: v }),
        {
          extended: true,
          aloneOnly: true,
        },
      ),
    );
  variants.push(...objectsAsText(made, types, valid));
  variants.push(...bigIntegerFor(card, element, types, valid));
  variants.push(...integerSpellings(card, element, types, valid));
  variants.push(...numbersNotJson(card, element, types, valid));
  // A whole number written as a string a lenient parser reads as one: with a unit, in exponent notation.
  if (types.includes('integer') && typeof valid === 'number') {
    variants.push(
      made('other-type', 'string-with-unit', `the string "${valid}s" (with a unit)`, (v) => `${String(v)}s`, { extended: true }),
      made('other-type', 'string-exponent', `the string "${valid.toExponential()}"`, (v) => (v as number).toExponential(), {
        extended: true,
      }),
      // Written as a culture that groups thousands with "." and marks decimals with "," writes it
      // (de-DE): a string in JSON, and in a form body a number with a fraction ("3.600" is 3.6), though
      // a binder under that culture reads the whole number ("3.600" as 3600, "3600,0" as 3600).
      made('other-type', 'string-decimal-comma', `the string "${valid},0" (a decimal comma)`, (v) => `${String(v)},0`, { extended: true }),
    );
    if (valid >= 1000)
      variants.push(
        made(
          'other-type',
          'string-grouped-thousands',
          `the string "${groupedThousands(valid)}" (its thousands grouped by ".")`,
          (v) => groupedThousands(v as number),
          { extended: true },
        ),
      );
    // A number of seconds written as what it stands for: an ISO 8601 duration, and the instant it
    // ends at as a date-time (a date picker's value). A string either way, though a parser that
    // turns a duration or the seconds left until an instant into the number takes it for one in
    // range. The instant is the start of a UTC day one to two days ahead, where the field's range
    // holds every such count of seconds (DAY_AHEAD_SECONDS).
    variants.push(
      made('other-type', 'string-iso-duration', `the string "PT${valid}S" (an ISO 8601 duration)`, (v) => `PT${String(v)}S`, {
        extended: true,
      }),
    );
    if (withinRange(element, DAY_AHEAD_SECONDS.least) && withinRange(element, DAY_AHEAD_SECONDS.most)) {
      variants.push(
        made(
          'other-type',
          'string-instant-ahead',
          'the date-time of the start of a UTC day one to two days ahead (its seconds from now in range)',
          () => dayStartAhead(),
          {
            extended: true,
          },
        ),
      );
    }
  }
  // The valid number in the typed wrapper of a storage format: a body read with that format's
  // parser (shared with the storage layer) takes the wrapper for the number it stands for.
  if ((types.includes('integer') || types.includes('number')) && typeof valid === 'number') {
    for (const wrapper of NUMBER_WRAPPERS) {
      variants.push(
        made('other-type', wrapper.key, wrapper.says(valid), (v) => wrapper.wrap(typeof v === 'number' ? v : valid), {
          extended: true,
          aloneOnly: true,
        }),
      );
    }
  }
  // Near misses of a pattern: the valid value with one character it does not allow at an edge, or
  // a separator doubled; those the field's pattern refuses at either level are rows, judged like any.
  // An https URL written with http: a check of the generic "uri" format, or one that upgrades the
  // scheme, takes it for the https one the rule asks for.
  if (typeof valid === 'string' && /^https:/i.test(valid) && hasFormat(element, 'strict-https-uri')) {
    variants.push(
      made('near-value', 'http-scheme', 'with the scheme http in place of https', (v) => String(v).replace(/^https:/i, 'http:'), {
        extended: true,
      }),
    );
  }
  // A URL field given a reference that is no absolute URL: protocol-relative ("//host/path") and a
  // relative path. A check that resolves the value against a base (new URL(value, base)) takes
  // either for the absolute URL it resolves to.
  if (typeof valid === 'string' && /^https?:\/\//i.test(valid) && URL_FORMATS.some((format) => hasFormat(element, format))) {
    variants.push(
      made('near-value', 'protocol-relative', 'as a protocol-relative reference (without its scheme, "//host/path")', (v) =>
        String(v).replace(/^https?:/i, ''),
      ),
      made(
        'near-value',
        'relative-path',
        'as a relative path (its path alone, without scheme and host)',
        (v) => relativePathOf(String(v)),
        { extended: true },
      ),
    );
  }
  patternNearMisses(element, valid).forEach(({ key, says, value }, index) => {
    variants.push(made('near-value', key, says, () => value, index === 0 ? {} : { extended: true }));
  });
  // A string at its maximum length with a letter outside ASCII: a length counted in bytes (UTF-8)
  // takes it for one over. Judged by its schema like any (a pattern may refuse the letter).
  for (const { at, make } of boundsOf(element, valid).filter((b) => b.unit === ' characters')) {
    if (at < 1 || variants.some((v) => v.key === `bound-${at}-non-ascii`)) continue;
    variants.push(
      made('bounds', `bound-${at}-non-ascii`, `${at} characters, at the bound, the last one ü`, () => `${String(make(at)).slice(0, -1)}ü`, {
        bound: true,
        extended: true,
      }),
    );
  }
  for (const { at, make, unit } of boundsOf(element, valid)) {
    for (const n of [at - 1, at, at + 1]) {
      // A size (a length, a count) is never negative; a value may be.
      if ((n < 0 && unit !== '') || variants.some((v) => v.key === `bound-${n}${unit}`)) continue;
      variants.push(
        made(
          'bounds',
          `bound-${n}${unit}`,
          `${n}${unit}${n === at ? ', at the bound' : n < at ? ', one under the bound' : ', one over the bound'}`,
          () => make(n),
          { bound: true },
        ),
      );
    }
  }
  // A string one over its maximum length whose first character is one a normaliser drops before
  // the length is counted (a trim's space, a query's "?", a fragment's "#", a path's "/", a domain's
  // leading "."): a length counted after that step takes it for one at the bound.
  const longest = Math.max(...schemaNodes(element).map((node) => (typeof node?.maxLength === 'number' ? node.maxLength : -1)));
  const lengths = boundsOf(element, valid).find((b) => b.unit === ' characters' && b.at === longest);
  if (lengths && typeof valid === 'string') {
    for (const { name, character } of DROPPED_LEADERS) {
      variants.push(
        made(
          'bounds',
          `bound-${longest + 1}-led-by-${name}`,
          `${longest + 1} characters, one over the bound, starting with "${character}" (${name})`,
          () => `${character}${String(lengths.make(longest)).slice(character.length - 1)}`,
          { bound: true, extended: true, aloneOnly: true },
        ),
      );
    }
  }
  variants.push(...roundValuesOutOfRange(made, element, types), ...integersPastSafeRange(made, element, types));
  variants.push(...countsWithAnEmptyEntry(made, element, valid));
  variants.push(...lengthsOverInCodePoints(made, element, valid));
  variants.push(...lengthsInAstralCharacters(made, element));
  // The valid whole number's neighbour, the nearest number that is not whole (3600.0000000000005):
  // a check with a tolerance, or one made after the value went through a 32-bit float, takes it for
  // the whole number; the half of the fraction above is far from both.
  if (types.includes('integer') && typeof valid === 'number' && Number.isInteger(valid)) {
    variants.push(
      made('near-value', 'next-number', `${nextNumber(valid)}, the nearest number to the valid one that is not whole`, () =>
        nextNumber(valid),
      ),
    );
  }
  const range = boundsOf(element, valid).filter((b) => b.unit === '');
  // A fraction whose JSON text has no dot (1e-7, in exponent notation), where the range holds one:
  // an integer test that looks for a "." in the number's text takes it for whole.
  const dotless = types.includes('integer') ? DOTLESS_FRACTIONS.find((n) => withinRange(element, n)) : undefined;
  if (dotless !== undefined) {
    variants.push(
      made('near-value', 'fraction-without-dot', `${JSON.stringify(dotless)}, a fraction whose JSON text has no dot`, () => dotless, {
        extended: true,
      }),
    );
  }
  if (types.includes('integer') && range.length > 0) {
    // A value a 32-bit integer wraps into the range (a bound plus 2^32): only a server that reads the
    // number into 32 bits before it checks the range takes it for one inside.
    const wrapped = 2 ** 32 + Math.min(...range.map((b) => b.at));
    variants.push(
      made('near-value', 'wraps-32-bit', `${wrapped}, which a 32-bit integer wraps into its range`, () => wrapped, { bound: true }),
    );
    // And the values that wrap into the range once converted to a finer unit in a fixed-width
    // integer (Go's time.Duration(n) * time.Second, n * 1000 in an int32 of milliseconds).
    const lowest = Math.min(...range.map((b) => b.at));
    const highest = Math.max(...range.map((b) => b.at));
    for (const twin of wrapsAfterConversion(lowest, highest))
      variants.push(
        made('near-value', twin.key, `${twin.value}, which wraps into its range ${twin.says}`, () => twin.value, { extended: true }),
      );
  }
  if (typeof valid === 'string' && valid.length > 0) {
    if (swapCase(valid) !== valid)
      variants.push(
        made('case', 'case', 'in the other letter case', (v) => swapCase(String(v)), { changesIdentity: true, extended: true }),
      );
    variants.push(
      made('whitespace', 'leading-space', 'with a space before it', (v) => ` ${String(v)}`, { changesIdentity: true, extended: true }),
      made('whitespace', 'trailing-space', 'with a space after it', (v) => `${String(v)} `, { changesIdentity: true, extended: true }),
    );
    if (valid.length > 1)
      variants.push(
        made('truncate', 'truncate', 'without its last character', (v) => String(v).slice(0, -1), {
          changesIdentity: true,
          extended: true,
        }),
      );
    variants.push(
      made('extra-part', 'extra-character', 'with one character added', (v) => idOfLength(String(v), String(v).length + 1), {
        changesIdentity: true,
        extended: true,
      }),
    );
    // The same in a second item, after a valid one: a binder that reads an item it does not know as
    // null and drops the nulls (Jackson's READ_UNKNOWN_ENUM_VALUES_AS_NULL, then removeIf) keeps the
    // valid one and takes the list for valid.
    if (path[path.length - 1] === '[]')
      variants.push(
        made(
          'extra-part',
          'extra-character-second-item',
          'with one character added, in a second item after a valid one',
          (v) => idOfLength(String(v), String(v).length + 1),
          { changesIdentity: true, extended: true, secondItem: true },
        ),
      );
  }
  if (types.includes('object')) {
    variants.push(
      made('extra-part', 'unknown-property', 'with an unknown property', (v) => ({ ...(v as JsonObject), x_conformance_suite: true })),
      // A property named as one every object inherits: a key checked with `in` against the known
      // names (or by indexing a plain object of them) takes it for a known one.
      made(
        'extra-part',
        'inherited-property',
        'with a property named "constructor", a name every object inherits',
        (v) => ({ ...(v as JsonObject), constructor: true }),
        { extended: true },
      ),
    );
  }
  // An unknown member named as a vendor extension ("x-"), where unknown members are refused: a
  // schema whose generator keeps OpenAPI's extensions (patternProperties "^x-") lets it through.
  if (types.includes('object') && schemaNodes(element).some((node) => node?.additionalProperties === false)) {
    variants.push(
      made(
        'extra-part',
        'extension-property',
        `with an unknown property named "${EXTENSION_MEMBER}"`,
        (v) => ({ ...(v as JsonObject), [EXTENSION_MEMBER]: true }),
        { extended: true, aloneOnly: true },
      ),
      // Unknown members named as the annotations and metadata that frameworks drop before a
      // payload is checked (OData's "@odata.type", JSON-LD's "@type", JSON Schema's "$schema",
      // GraphQL's "__typename", HAL's "_links"): unknown all the same, where unknown members are refused.
      ...ANNOTATION_MEMBERS.map(({ key, name }) =>
        made(
          'extra-part',
          `annotation-${key}`,
          `with an unknown property named "${name}"`,
          (v) => ({ ...(v as JsonObject), [name]: 'x' }),
          {
            extended: true,
            aloneOnly: true,
          },
        ),
      ),
    );
  }
  variants.push(...inheritedNameValues(element, made));
  if (types.includes('array') && Array.isArray(valid) && valid.length > 0) {
    variants.push(
      made('duplicate', 'duplicate-item', 'with its item twice', (v) => [...(v as unknown[]), (v as unknown[])[0]], { extended: true }),
    );
  }
  variants.push(...duplicateMembers(card, element, variants));
  variants.push(...formEncoded(card, element));
  variants.push(...nearNameMembers(card, element));
  variants.push(...pathNamedMembers(card, element));
  const nullable = schemaNodes(element).some((node) => typesOf(node).includes('null'));
  variants.push(...lenientShapes(made, element, valid, nullable ? [...types, 'null'] : types, identity));
  variants.push(...absentBesideSiblings(card, element));
  variants.push(...countsWithCaseTwins(made, element));
  variants.push(...lengthsOverWithWhitespaceRuns(made, element, valid));
  variants.push(...fitsOnlyNormalised(made, element, valid));
  variants.push(...withoutIdPrefix(made, element, valid));
  variants.push(...compatibilityForms(made, element, valid));
  variants.push(...wrappedValues(made, element, valid, variants));
  variants.push(...listsAsText(made, element, valid, types));
  variants.push(...wildcardValues(made, element));
  variants.push(...mapEntries(made, element));
  variants.push(...strategyNamedConnections(element, made));
  return variants;
}

/** Keys a map's rules allow (they hold no rule on keys) that a store's own rules on field names may refuse. */
const UNUSUAL_KEYS: ReadonlyArray<{ key: string; says: string; name: string }> = [
  // MongoDB's field names: no "." (a path into a subdocument), none starting with "$" (an operator).
  { key: 'dotted', says: 'a dot in it ("team.name")', name: 'team.name' },
  { key: 'dollar', says: 'a leading "$" ("$owner")', name: '$owner' },
  { key: 'space', says: 'a space in it ("cost centre")', name: 'cost centre' },
  { key: 'non-ascii', says: 'letters outside ASCII ("équipe")', name: 'équipe' },
  { key: 'hyphen', says: 'a hyphen in it ("team-name")', name: 'team-name' },
  { key: 'empty', says: 'no characters (""), the empty key', name: '' },
];

/**
 * A map's entries of the unusual kinds (an object whose members' values share one schema, and no
 * rule on its keys: metadata): one entry whose value is an object of strings, and one whose value
 * is a list of strings, where the values are scalars (refused, though a store that flattens nested
 * members into dotted keys, or joins a list, takes either); and one entry under each key of
 * UNUSUAL_KEYS that the rules allow (accepted, though a store with rules on field names refuses it).
 * Judged by the body they make, like any; against test doubles.
 */
function mapEntries(made: MakeVariant, element: Element): Made[] {
  const out: Made[] = [];
  const maps = schemaNodes(element).filter(
    (node): node is JsonObject =>
      node !== undefined &&
      node.additionalProperties !== null &&
      typeof node.additionalProperties === 'object' &&
      !Array.isArray(node.additionalProperties),
  );
  if (maps.length === 0) return [];
  const members = maps.map((node) => node.additionalProperties as JsonObject);
  const scalarValues = members.every((member) => !typesOf(member).includes('object') && !typesOf(member).includes('array'));
  if (scalarValues) {
    out.push(
      made(
        'other-type',
        'entry-value-object',
        'with an entry whose value is an object of strings ({"team": {"name": "payments"}})',
        () => ({
          team: { name: 'payments' },
        }),
        { extended: true, aloneOnly: true },
      ),
      made(
        'other-type',
        'entry-value-list',
        'with an entry whose value is a list of strings ({"teams": ["payments", "billing"]})',
        () => ({
          teams: ['payments', 'billing'],
        }),
        { extended: true, aloneOnly: true },
      ),
    );
  }
  const keysFree = maps.every((node) => node.propertyNames === undefined && node.patternProperties === undefined);
  if (keysFree && members.every((member) => nodeAccepts(member, 'observed', 'payments'))) {
    for (const { key, says, name } of UNUSUAL_KEYS) {
      out.push(
        made('near-value', `entry-key-${key}`, `with an entry whose key has ${says}`, () => ({ [name]: 'payments' }), {
          extended: true,
          aloneOnly: true,
        }),
      );
    }
  }
  return out;
}

/**
 * A connection's name (a "name" member of an object named for a connection: connection_config)
 * that is a strategy's name (each the description enumerates: observed connection_strategies),
 * where its rules take it: nothing reserves them, though a server that keeps a reserved list copied
 * from its strategy table refuses them.
 * Judged by the body it makes, like any; not where the target file names it as an existing
 * connection (a taken name is a 409), and against test doubles only (a tenant may have a
 * connection of that name, as a social connection is named after its strategy).
 */
function strategyNamedConnections(element: Element, made: MakeVariant): Made[] {
  const path = element.path!;
  if (path.length < 2 || path[path.length - 1] !== 'name' || !/connection/.test(path[path.length - 2]!)) return [];
  return observed.connection_strategies.value
    .filter((name) => fieldAccepts(element, name))
    .map((name) => {
      const variant = made('near-value', `strategy-name-${name}`, `"${name}", the name of a connection strategy`, () => name, {
        extended: true,
        aloneOnly: true,
      });
      const judge = (varied: RequestTemplate, context: RequestContext): Expectation =>
        context.fixtures.existingConnectionName === name
          ? { none: `"${name}" is the name of the target's existing connection (existing_connection_name)` }
          : variant.judge!(varied, context);
      return { ...variant, judge };
    });
}

/**
 * Wildcards in place of a value of a string enum (read from the schemas at either level): "*", and
 * where the allowed values are scopes ("<action>:<resource>"), the first value's action on every
 * resource ("get:*"), every action on its resource ("*:users") and "*:*". None is allowed, though a
 * permission helper that expands a wildcard into the allowed values it matches before the check
 * takes it for them. Judged by the body it makes, like any; against test doubles.
 */
function wildcardValues(made: MakeVariant, element: Element): Made[] {
  const allowed = schemaNodes(element)
    .map((node) => node?.enum)
    .filter(Array.isArray)
    .flat()
    .filter((value): value is string => typeof value === 'string');
  if (allowed.length === 0) return [];
  const wildcards = [{ key: 'wildcard', says: 'the wildcard "*"', value: '*' }];
  const scope = /^([^:\s]+):([^:\s]+)$/;
  const first = scope.exec(allowed[0]!);
  if (first && allowed.every((value) => scope.test(value))) {
    const [, action, resource] = first;
    wildcards.push(
      { key: 'wildcard-resource', says: `"${action!}:*", its first value's action on every resource`, value: `${action!}:*` },
      { key: 'wildcard-action', says: `"*:${resource!}", every action on its first value's resource`, value: `*:${resource!}` },
      { key: 'wildcard-both', says: 'the wildcard scope "*:*"', value: '*:*' },
    );
  }
  return wildcards
    .filter(({ value }) => !allowed.includes(value))
    .map(({ key, says, value }) => made('near-value', key, says, () => value, { extended: true, aloneOnly: true }));
}

/**
 * How a list may be written as one string: comma-separated (a CSV cell), with a space after each
 * comma, space-separated (a scope string), "|"-separated (a multi-select stored as one column) and
 * ";"-separated (a list in the manner of a connection string or a mail client's address line).
 */
const LIST_SEPARATORS: ReadonlyArray<{ key: string; says: string; separator: string }> = [
  { key: 'comma', says: 'comma-separated', separator: ',' },
  { key: 'comma-space', says: 'separated by a comma and a space', separator: ', ' },
  { key: 'space', says: 'space-separated', separator: ' ' },
  { key: 'pipe', says: '"|"-separated', separator: '|' },
  { key: 'semicolon', says: '";"-separated', separator: ';' },
];

/**
 * A list written as one string, another type, judged like any: an object whose members are all
 * booleans (flags) given as its member names (every one, and the first alone, in one string, and
 * every one as a JSON list), which a reader that turns a list of names into the flags they set
 * ({name: true}) takes for the object; and a list of
 * strings given as two of its items (its enum's first two, else its valid items) in one string,
 * which a reader that splits a string on its separator takes for the list. Against test doubles.
 */
function listsAsText(made: MakeVariant, element: Element, valid: unknown, types: JsonType[]): Made[] {
  const out: Made[] = [];
  const nodes = schemaNodes(element).filter((node): node is JsonObject => node !== undefined);
  if (types.includes('object') && !types.includes('string')) {
    const flags = [
      ...new Set(
        nodes.flatMap((node) => {
          const members = Object.entries((node.properties as Record<string, JsonObject> | undefined) ?? {});
          return members.length > 0 && members.every(([, member]) => typesOf(member).includes('boolean')) ? members.map(([n]) => n) : [];
        }),
      ),
    ];
    if (flags.length > 0) {
      const texts = LIST_SEPARATORS.map(({ key, says, separator }) => ({
        key: `flag-names-${key}`,
        says: `the string of its flags' names ${says} ("${flags.join(separator)}")`,
        text: flags.join(separator),
      }));
      texts.push({ key: 'flag-name-alone', says: `the string of its first flag's name ("${flags[0]!}")`, text: flags[0]! });
      const seen = new Set<string>();
      for (const { key, says, text } of texts) {
        if (seen.has(text)) continue;
        seen.add(text);
        out.push(made('other-type', key, says, () => text, { extended: true, aloneOnly: true }));
      }
      // The flags' names as a JSON list (a set of the names, as a Thrift or protobuf set is written):
      // another type, though an adapter that takes either the object or the set's names reads it.
      out.push(
        made('other-type', 'flag-names-list', `a list of its flags' names (${JSON.stringify(flags)})`, () => [...flags], {
          extended: true,
          aloneOnly: true,
        }),
      );
    }
  }
  const stringItems = nodes
    .map((node) => node.items)
    .find((items): items is JsonObject => items !== null && typeof items === 'object' && typesOf(items as JsonObject).includes('string'));
  if (types.includes('array') && !types.includes('string') && stringItems && Array.isArray(valid) && valid.length > 0) {
    const choices = nodes.map((node) => (node.items as JsonObject | undefined)?.enum).find(Array.isArray) as unknown[] | undefined;
    const two = (v: unknown): string[] => {
      const items = choices ?? (Array.isArray(v) && v.length > 0 ? v : valid);
      return [0, 1].map((i) => String(items[i % items.length]));
    };
    for (const { key, says, separator } of LIST_SEPARATORS) {
      out.push(
        made(
          'other-type',
          `items-${key}`,
          `the string of two of its items ${says} ("${two(valid).join(separator)}")`,
          (v) => two(v).join(separator),
          {
            extended: true,
            aloneOnly: true,
          },
        ),
      );
    }
    // The list as a Postgres array literal ("{a,b}"), a string: another type, though an argument
    // bound to a text[] column reads the literal as the list.
    out.push(
      made(
        'other-type',
        'items-array-literal',
        `the string of its items as a Postgres array literal ("{${two(valid).join(',')}}")`,
        (v) => `{${two(v).join(',')}}`,
        {
          extended: true,
          aloneOnly: true,
        },
      ),
    );
  }
  return out;
}

type MakeVariant = (
  operator: Made['operator'],
  key: string,
  says: string,
  change: (valid: unknown) => unknown,
  extra?: Partial<Made> & { changesIdentity?: boolean; bound?: boolean; secondItem?: boolean },
) => Made;

const FORM_MEDIA_TYPE = 'application/x-www-form-urlencoded';

/** The observed body schemas, converting form fields to the schema's scalar types (a list of one to its item) as the service's form parser does. */
const formChecks = new Map<string, ValidateFunction>();

/** The fields of a form-encoded body as a flat form parser reads them: each a string, one given more than once a list of strings. */
function flatFormFields(form: string): Record<string, string | string[]> {
  const fields: Record<string, string | string[]> = {};
  for (const [name, value] of new URLSearchParams(form)) {
    const previous = fields[name];
    fields[name] = previous === undefined ? value : [...(Array.isArray(previous) ? previous : [previous]), value];
  }
  return fields;
}

/** What a form-encoded body gets from the real service (observed.request_bodies): its fields converted, then checked by the published rules. */
function formExpectation(card: OperationCard, form: string): Expectation {
  const name = card.body!.schema;
  let check = formChecks.get(name);
  if (!check) formChecks.set(name, (check = createAjv({ coerceTypes: 'array', level: 'observed' }).compile(schema(name, 'observed'))));
  const source =
    "observed.yaml request_bodies.form_encoded (doc): the service reads a form-encoded body too, its flat parser making each field a string, one given more than once a list of strings (inferred), converted to the schema's scalar types";
  return check(flatFormFields(form))
    ? { checks: [{ clause: card.body!.rulesClause, outcome: accepted }], source }
    : { checks: [{ clause: card.body!.rulesClause, outcome: observedError('invalid_body') }], source: `${source}: a list is no scalar` };
}

/** A scalar as a form field's text; a list as its first item's (a list field's items are the field repeated). */
function formText(value: unknown): string | undefined {
  const scalar = Array.isArray(value) ? (value as unknown[])[0] : value;
  return typeof scalar === 'string' || typeof scalar === 'number' || typeof scalar === 'boolean' ? String(scalar) : undefined;
}

/**
 * A top-level field sent form-encoded, as the real service reads a body too. A field whose valid
 * value is a scalar: at its valid value (accepted once converted to its type), and given more than
 * once (a list of strings, which no scalar field takes): twice with the first empty, where a parser
 * that keeps the last value or drops empty ones reads the valid one, and three times at the valid
 * value, where one that keeps a single value reads it. A list of scalars: its item given three
 * times, a list of three, where a parser that nests the third in the list of the first two, or keeps
 * one, reads no list of three. Observed level only (the spec asks for JSON), and against test
 * doubles: the JSON rows check the field on a real tenant.
 */
function formEncoded(card: OperationCard, element: Element): Made[] {
  const path = element.path!;
  if (path.length !== 1 || !observed.request_bodies.form_encoded.value) return [];
  const [name] = path as [string];
  const made = (operator: Made['operator'], key: string, says: string, values: (valid: string) => string[]): Made => {
    const apply = (template: RequestTemplate, context: RequestContext): RequestTemplate => {
      const valid = formText(validValueAt(card, path, context)) ?? '';
      const form = new URLSearchParams(values(valid).map((value): [string, string] => [name, value])).toString();
      return { ...template, headers: { ...template.headers, 'content-type': [FORM_MEDIA_TYPE] }, body: { raw: form } };
    };
    const varied = apply(emptyTemplate(), canonicalContext);
    return {
      operator,
      key,
      says,
      apply,
      expect: formExpectation(card, (varied.body as { raw: string }).raw),
      aloneOnly: true,
      extended: true,
    };
  };
  const valid = validValueAt(card, path, canonicalContext);
  // A field a flat form cannot hold (an object) given as text: no member of the published rules
  // takes a string there, so a form path checked by a schema without that member lets it through.
  if (formText(valid) === undefined) return [made('other-type', 'form-text', 'as the text "x" in a form-encoded body', () => ['x'])];
  if (Array.isArray(valid)) {
    return [
      made('duplicate', 'form-item-three-times', 'as its item given three times in a form-encoded body (a list of three)', (v) => [
        v,
        v,
        v,
      ]),
    ];
  }
  // A string field at a value of another shape (its valid value behind "x_"), form-encoded: the
  // published rules (observed) judge it as they judge it in JSON, so a form path checked by the
  // spec's looser schema alone lets it through.
  const otherShape =
    typeof valid === 'string'
      ? [made('near-value', 'form-other-shape', 'of another shape (its valid value behind "x_"), form-encoded', (v) => [`x_${v}`])]
      : [];
  // A number or a flag given empty in a form-encoded body ("ttl_sec="): no value of its type, though
  // a binder that reads an empty value as its type's zero (Go's gin, 0 or false) takes one.
  const empty = typeof valid === 'string' ? [] : [made('empty', 'form-empty', 'given empty in a form-encoded body', () => [''])];
  return [
    ...otherShape,
    ...empty,
    made('encoding', 'form-encoded', 'at its valid value, form-encoded', (v) => [v]),
    made(
      'duplicate',
      'form-twice-first-empty',
      `given twice in a form-encoded body, the first empty (${name}=&${name}=<valid value>)`,
      (v) => ['', v],
    ),
    made('duplicate', 'form-three-times', `given three times in a form-encoded body at its valid value`, (v) => [v, v, v]),
  ];
}

/** The key an object of the API names an id of a field by: "connection_id" as it is, "enabled_clients[]" -> "client_id". */
function idKeyOf(path: readonly string[]): string | undefined {
  const step = [...path].reverse().find((s) => s !== '[]');
  if (step === undefined) return undefined;
  if (step.endsWith('_id')) return step;
  const noun = step.split('_').pop()!.replace(/s$/, '');
  return noun === '' || noun === 'id' ? undefined : `${noun}_id`;
}

/** The member of an item that names it: "id", or the one "..._id" member whose value is a string. */
function idMemberOf(item: JsonObject): string | undefined {
  if (typeof item.id === 'string') return 'id';
  const named = Object.keys(item).filter((key) => key.endsWith('_id') && typeof item[key] === 'string');
  return named.length === 1 ? named[0] : undefined;
}

/**
 * Values of another type that a lenient reader takes for the valid one, each judged by the schemas
 * like any: an id wrapped in an object under the id key the API's objects give it, a list written
 * as an object keyed by index ({"0": ...}, what a query-string parser makes of a list), a flag
 * written as an object {"enabled": ...} (a settings shape), false where null is allowed (falsy
 * taken for null), and a ticked HTML checkbox's "on" for a boolean (sent form-encoded too: formTwin).
 */
// Long: one entry per lenient shape, each with its own guard; a reviewer reads the shapes a reader
// might take for the valid value in one place.
function lenientShapes(made: MakeVariant, element: Element, valid: unknown, types: JsonType[], identity: boolean): Made[] {
  const path = element.path!;
  const out: Made[] = [];
  const idKey = idKeyOf(path);
  if (identity && typeof valid === 'string' && idKey !== undefined) {
    out.push(
      made('other-type', 'object-holding-it-named', `an object holding the valid value under "${idKey}"`, (v) => ({ [idKey]: v }), {
        extended: true,
      }),
    );
  }
  if (types.includes('array') && Array.isArray(valid) && valid.length > 0) {
    out.push(
      made(
        'other-type',
        'array-like-object',
        'an array-like object of its items ({"length": n, "0": ...})',
        (v) => arrayLike(Array.isArray(v) ? v : [v]),
        { extended: true },
      ),
      made(
        'other-type',
        'index-keyed-object',
        'an object of its items keyed by index ({"0": ...})',
        (v) => Object.fromEntries((Array.isArray(v) ? v : [v]).map((item, i) => [String(i), item])),
        { extended: true },
      ),
    );
  }
  // A list of objects each named by an id member, written as a map from each id to the rest of its
  // item ({"org_...": {...}}, a strong-params hash): a reader that turns the map back into items
  // (each value with its key put back under the id member) takes it for the list.
  const idMember = Array.isArray(valid) && isNonEmptyObject(valid[0]) ? idMemberOf(valid[0]) : undefined;
  if (types.includes('array') && idMember !== undefined) {
    out.push(
      made(
        'other-type',
        'id-keyed-object',
        `an object of its items keyed by their ${idMember} ({"<${idMember}>": {...the rest}})`,
        (v) =>
          Object.fromEntries(
            (Array.isArray(v) ? v : [v]).map((item) => {
              const { [idMember]: id, ...rest } = item as JsonObject;
              return [String(id), rest];
            }),
          ),
        { extended: true },
      ),
    );
  }
  if (types.includes('object') && !types.includes('array') && isNonEmptyObject(valid)) {
    out.push(
      made(
        'other-type',
        'entries-array',
        'the array of its entries ([["name", value], ...], a Map serialised)',
        (v) => Object.entries(v as JsonObject),
        {
          extended: true,
        },
      ),
    );
  }
  if (types.includes('boolean') && typeof valid === 'boolean') {
    out.push(
      made('other-type', 'object-enabled', 'an object holding it as {"enabled": ...}', (v) => ({ enabled: v }), { extended: true }),
      made('other-type', 'checkbox-on', 'the string "on" (a ticked HTML checkbox)', () => 'on', { extended: true }),
    );
    // The other spellings of a boolean as text (a config file's, a database flag's, a CLI's): a
    // reader that maps them to booleans before the check takes them for the flag. "true" is the
    // closest wrong type and "on" the checkbox above; these only in the smallest body.
    for (const spelling of BOOLEAN_SPELLINGS) {
      out.push(
        made('other-type', `boolean-spelling-${spelling}`, `the string "${spelling}" (a boolean's spelling as text)`, () => spelling, {
          extended: true,
          aloneOnly: true,
        }),
      );
    }
  }
  // A list of strings written as a set in a map, each valid item to true ({"a": true}): a reader
  // that takes the map's keys (Object.keys(...).filter(...)) turns it into the list.
  // The item's type at either level (the contract may not give one).
  const stringItems = schemaNodes(element).some((node) => {
    const items = node?.items;
    return items !== null && typeof items === 'object' && typesOf(items as JsonObject).includes('string');
  });
  if (types.includes('array') && Array.isArray(valid) && valid.length > 0 && stringItems) {
    out.push(
      made(
        'other-type',
        'set-as-map',
        'an object mapping each of its items to true (a set written as a map)',
        (v) => Object.fromEntries((Array.isArray(v) && v.length > 0 ? v : valid).map((item) => [String(item), true])),
        { extended: true },
      ),
    );
  }
  if (types.includes('null') && !types.includes('boolean')) {
    out.push(made('other-type', 'false-for-null', 'false, where null is allowed', () => false, { extended: true }));
  }
  return out;
}

/**
 * The field's valid value under a near name of its member (the name in capitals, or in camelCase
 * or kebab-case where it has underscores), and no member of its own name: an unknown member, and
 * the field absent. Judged by the body it makes, like any (the observed schemas refuse unknown
 * members at every depth); a binder that folds case or aliases camelCase reads it as the field.
 */
function nearNameMembers(card: OperationCard, element: Element): Made[] {
  const path = element.path!;
  const name = path[path.length - 1]!;
  if (name === '[]') return [];
  return (
    nameNearMisses
      // Names a JSON binder may take for the member's; "." and " " are PHP's for form parameters.
      .filter(({ key }) => ['name-capitals', 'name-camel-case', 'name-kebab-case'].includes(key))
      .flatMap(({ key, says, operator, rename }): Made[] => {
        const other = rename(name);
        if (other === undefined) return [];
        const apply = (template: RequestTemplate, context: RequestContext) => {
          const renamed = withValueAt(
            withValueAt(jsonBodyOf(template), path, ABSENT),
            [...path.slice(0, -1), other],
            validValueAt(card, path, context),
          );
          return withBody(template, { json: renamed });
        };
        const judge = (varied: RequestTemplate, _context: RequestContext) =>
          bodyExpectation(card, element, jsonBodyOf(varied), { identityChanged: false, bound: false });
        return [
          {
            operator,
            key,
            says: `under its member's name ${says} (${other}), and not under its own`,
            apply,
            judge,
            expect: judge(apply({ ...emptyTemplate(), body: { json: {} } }, canonicalContext), canonicalContext),
            extended: true,
          },
        ];
      })
  );
}

/** How a member name may spell a path into nested objects: dotted (a config loader's unflatten), bracketed (a qs-style parser). */
const PATH_NAMES: ReadonlyArray<{ key: string; says: string; name: (path: readonly string[]) => string }> = [
  { key: 'dotted-path-name', says: 'dotted', name: (path) => path.join('.') },
  { key: 'bracketed-path-name', says: 'bracketed', name: ([first, ...rest]) => `${first}${rest.map((step) => `[${step}]`).join('')}` },
];

/**
 * The nested field's valid value in a member of the body whose name spells its path ("a.b",
 * "a[b]"), and not in its own place: an unknown member of the body (the observed schemas refuse
 * unknown members), and the field absent. Judged by the body it makes, like any; a server that
 * passes the body through a dotted-path setter or a qs-style parser before its checks reads the
 * member as the field in its place.
 */
function pathNamedMembers(card: OperationCard, element: Element): Made[] {
  const path = element.path!;
  if (path.length < 2 || path.includes('[]')) return [];
  return PATH_NAMES.map(({ key, says, name }): Made => {
    const member = name(path);
    const apply = (template: RequestTemplate, context: RequestContext) => {
      const moved = withValueAt(withValueAt(jsonBodyOf(template), path, ABSENT), [member], validValueAt(card, path, context));
      return withBody(template, { json: moved });
    };
    return judgedOnItsBody(card, element, {
      operator: 'extra-part',
      key,
      says: `in a member of the body named by its ${says} path (${member}), and not in its own place`,
      apply,
      extended: true,
      aloneOnly: true,
    });
  });
}

/** A string no body holds, whose member the duplicated one replaces in the serialised body. */
const MEMBER_MARK = 'x-conformance-duplicated-member';

/**
 * The field's member given twice in the JSON text, one value valid and the other not: the field's
 * first refused variation (one beyond a bound, else the closest wrong type). RFC 8259 4 leaves a
 * name given twice to the parser; the real service's keeps the last (observed.yaml
 * request_bodies.duplicate_members), so it validates and acts on the last value: a last invalid one
 * is refused (observed level), a last valid one accepted (against test doubles only). A server
 * whose validator reads the first and whose handler the last lets the invalid value through.
 */
function duplicateMembers(card: OperationCard, element: Element, variants: readonly Made[]): Made[] {
  const path = element.path!;
  const name = path[path.length - 1]!;
  // Judged alone in its smallest body, where only the field can be what is wrong.
  const alone = validTemplate(card, canonicalContext, aloneBody(card, path, canonicalContext));
  const refusedAlone = (v: Made) => v.judge !== undefined && expectsRefusal(v.judge(v.apply(alone, canonicalContext), canonicalContext));
  const invalid =
    variants.find((v) => v.operator === 'bounds' && refusedAlone(v)) ??
    variants.find((v) => v.operator === 'other-type' && refusedAlone(v));
  if (name === '[]' || !invalid) return [];
  const valueOf = (variant: Variant, template: RequestTemplate, context: RequestContext) =>
    valueAt(jsonBodyOf(variant.apply(template, context)), path);
  const twice = (lastInvalid: boolean): Made => {
    const apply = (template: RequestTemplate, context: RequestContext) => {
      const bad = JSON.stringify(valueOf(invalid, template, context));
      const good = JSON.stringify(validValueAt(card, path, context));
      const [first, last] = lastInvalid ? [good, bad] : [bad, good];
      const text = JSON.stringify(withValueAt(jsonBodyOf(template), path, MEMBER_MARK));
      const member = `${JSON.stringify(name)}:${JSON.stringify(MEMBER_MARK)}`;
      return withBody(template, { raw: text.replace(member, `${JSON.stringify(name)}:${first},${JSON.stringify(name)}:${last}`) });
    };
    const judge = (varied: RequestTemplate): Expectation => {
      const body = varied.body !== undefined && 'raw' in varied.body ? (JSON.parse(varied.body.raw) as unknown) : undefined;
      const read = bodyExpectation(card, element, body, { identityChanged: false, bound: false });
      const source = `the real service keeps the last of a member given twice (observed.yaml request_bodies.duplicate_members, ${observed.request_bodies.duplicate_members.strength})`;
      if (!('checks' in read)) return read;
      return expectsRefusal(read)
        ? { checks: [invalidBody], source }
        : { checks: [{ clause: card.body!.rulesClause, outcome: accepted }], source };
    };
    const order = lastInvalid ? 'valid, then' : 'invalid first:';
    return {
      operator: 'duplicate',
      key: lastInvalid ? 'member-twice-last-invalid' : 'member-twice-first-invalid',
      says: `given twice in the JSON text, ${order} ${invalid.says}${lastInvalid ? '' : ', then valid'}`,
      apply,
      judge,
      expect: judge(apply({ ...emptyTemplate(), body: { json: {} } }, canonicalContext)),
      ...(lastInvalid && path.length === 1 ? {} : { extended: true }),
    };
  };
  return [twice(true), twice(false)];
}

/** What Array.from and lodash's isArrayLikeObject take for a list: an object with a numeric length and its items keyed by index. */
function arrayLike(items: readonly unknown[]): JsonObject {
  return { length: items.length, ...Object.fromEntries(items.map((item, i) => [String(i), item])) };
}

function isNonEmptyObject(value: unknown): value is JsonObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length > 0;
}

/**
 * Names every object inherits (Object.prototype's): a check of a value or a key with the `in`
 * operator, or by indexing a plain object, finds them though no one listed them.
 */
const INHERITED_NAMES = ['constructor', 'toString', '__proto__', 'hasOwnProperty'];

/** An enum's values' near misses: each inherited name in its place (the first runs on a real tenant). */
function inheritedNameValues(element: Element, made: MakeVariant): Made[] {
  const enums = [element.schemas?.contract?.enum, element.schemas?.observed?.enum].filter(Array.isArray);
  if (!enums.some((values) => values.some((value) => typeof value === 'string'))) return [];
  return INHERITED_NAMES.filter((name) => !enums.some((values) => values.includes(name))).map((name, index) =>
    made(
      'near-value',
      `inherited-name-${name}`,
      `"${name}", a name every object inherits`,
      () => name,
      index === 0 ? {} : { extended: true },
    ),
  );
}

/**
 * The body as a whole, varied: null, other JSON types, no JSON, wrapped, trailing data.
 * Long: one entry per variation, read top to bottom as `--list` prints them.
 */
function rootVariants(card: OperationCard, element: Element): Made[] {
  const made = (operator: Made['operator'], key: string, says: string, json: unknown, extra: Partial<Made> = {}): Made => {
    const apply = (template: RequestTemplate) => withBody(template, { json });
    const judge = (varied: RequestTemplate, _context: RequestContext) =>
      bodyExpectation(card, element, jsonBodyOf(varied), { identityChanged: false, bound: false });
    return { operator, key, says, apply, judge, expect: judge(apply(emptyTemplate()), canonicalContext), ...extra };
  };
  const none = { none: 'spec 4.2 does not say how the service answers a request without a JSON body' };
  const malformedJson: Expectation = {
    checks: [{ clause: 'errors.400.body', outcome: observedError('malformed_json') }],
    source:
      "observed.yaml errors.malformed_json (inferred): a body that is not JSON gets the framework's 400, before the service's validation",
  };
  return [
    made('null', 'null', 'JSON null', null),
    made('other-type', 'array', 'an empty JSON array', []),
    made('other-type', 'string', 'a JSON string', 'x', { extended: true }),
    made('other-type', 'number', 'a JSON number', 1, { extended: true }),
    // The valid body serialised once more: a JSON string that holds JSON. A body parser that parses
    // a string it meets again takes it for the object.
    made('encoding', 'json-string', 'the valid body as a JSON string holding it', JSON.stringify(card.body!.empty)),
    made('extra-part', 'unknown-property', 'an object with an unknown property', { x_conformance_suite: true }),
    made(
      'extra-part',
      'extension-property',
      `an object with an unknown property named "${EXTENSION_MEMBER}"`,
      { [EXTENSION_MEMBER]: true },
      {
        extended: true,
      },
    ),
    ...ANNOTATION_MEMBERS.map(({ key, name }) =>
      made('extra-part', `annotation-${key}`, `an object with an unknown property named "${name}"`, { [name]: 'x' }, { extended: true }),
    ),
    made(
      'extra-part',
      'inherited-property',
      'an object with a property named "constructor", a name every object inherits',
      { constructor: true },
      { extended: true },
    ),
    // A member named "__proto__" holding a valid field: an unknown property all the same, though a
    // copy made with Object.assign takes it for the copy's prototype, whose field a check then finds.
    made(
      'extra-part',
      'proto-property',
      `an object with a property named "__proto__" holding ${JSON.stringify(protoHeld(card))}`,
      JSON.parse(`{"__proto__": ${JSON.stringify(protoHeld(card))}}`) as JsonObject,
      { extended: true },
    ),
    {
      operator: 'absent',
      key: 'absent',
      says: 'absent',
      apply: (template) => withBody({ ...template, headers: withoutContentType(template.headers) }, undefined),
      expect: card.spec.requestBodyRequired
        ? none
        : {
            checks: [{ clause: card.success.clause, outcome: accepted }],
            source: 'spec 4.2: every field is optional, and the body is not required (openapi.yaml)',
          },
    },
    {
      operator: 'encoding',
      key: 'not-json',
      says: 'not JSON (cut short)',
      apply: (template) => withBody(template, { raw: '{"ttl_sec": ' }),
      expect: malformedJson,
      extended: true,
    },
    // The valid body with data after it: no JSON text either (RFC 8259 2: one value, then only
    // whitespace), though a streaming parser that stops after the first value reads the body.
    {
      operator: 'extra-part',
      key: 'trailing-data',
      says: 'the valid body followed by " x" (not JSON)',
      apply: (template) => withBody(template, { raw: `${JSON.stringify(jsonBodyOf(template))} x` }),
      expect: malformedJson,
      extended: true,
    },
    // The valid body sent in chunks, with no Content-Length: the same request (RFC 9112 6.1, 7.1: a
    // recipient must parse the chunked coding), though a server that reads Content-Length bytes
    // (none) reads an empty body, or one that wants a length answers 411.
    {
      operator: 'encoding',
      key: 'chunked',
      says: 'the valid body sent in chunks (Transfer-Encoding: chunked, no Content-Length)',
      apply: (template) => ({ ...template, chunked: true }),
      expect: {
        checks: [{ clause: card.success.clause, outcome: accepted }],
        source: 'RFC 9112 6.1 and 7.1: the chunked transfer coding, which every HTTP/1.1 recipient parses; the body is the valid one',
      },
    },
    ...listsOfOneBody(card, element),
    ...envelopedBodies(card, element),
    ...bodiesInWhitespace(card, element),
    ...bodiesRespelled(card, element),
  ];
}

/**
 * The same JSON value written otherwise: with escapes a decoder undoes (RFC 8259 7), every ASCII
 * letter inside strings, the member names too, as its \\u escape; or with its members in another
 * order. It is the operation's fullest valid body once decoded, judged as it is; a server that
 * reads members with a pattern, matches names as written or takes members by their place refuses
 * it or reads other values. (Its fullest body has no "/" to escape.)
 */
const JSON_RESPELLINGS: ReadonlyArray<{ key: string; says: string; respell: (text: string) => string }> = [
  {
    key: 'fullest-unicode-escaped-letters',
    says: 'with every ASCII letter inside its strings (member names too) written as its \\u escape',
    respell: (text) =>
      text.replace(
        /"((?:[^"\\]|\\.)*)"/g,
        (_all, inside: string) =>
          `"${inside.replace(/\\.|[A-Za-z]/g, (part) => (part.length > 1 ? part : `\\u${part.charCodeAt(0).toString(16).padStart(4, '0')}`))}"`,
      ),
  },
  {
    // RFC 8259 4: an object is an unordered collection of members. A reader that takes a member by
    // its place (a positional binder, a type discriminator awaited first) reads other values.
    key: 'fullest-members-reversed',
    says: 'with the members of every object in reverse order',
    respell: (text) => JSON.stringify(membersReversed(JSON.parse(text))),
  },
];

/** The value with the members of each of its objects, at every depth, in reverse order. */
function membersReversed(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(membersReversed);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .reverse()
      .map(([name, member]) => [name, membersReversed(member)]),
  );
}

function bodiesRespelled(card: OperationCard, element: Element): Made[] {
  const judge = (varied: RequestTemplate, _context: RequestContext) =>
    bodyExpectation(card, element, varied.body !== undefined && 'raw' in varied.body ? JSON.parse(varied.body.raw) : undefined, {
      identityChanged: false,
      bound: false,
    });
  const fullest = (context: RequestContext) =>
    card.body!.full(context.fixtures, { global: context.clients.global ?? canonicalContext.clients.global! });
  return JSON_RESPELLINGS.map(({ key, says, respell }): Made => {
    const apply = (template: RequestTemplate, context: RequestContext) =>
      withBody(template, { raw: respell(JSON.stringify(fullest(context))) });
    return {
      operator: 'encoding',
      key,
      says: `the fullest valid body's JSON text ${says}`,
      apply,
      judge,
      expect: judge(apply(emptyTemplate(), canonicalContext), canonicalContext),
      extended: true,
    };
  });
}

/**
 * JSON whitespace around a body's text (RFC 8259 2: ws = space, tab, line feed, carriage return, on
 * either side of the value): a line feed after it (what curl --data-binary @file and most editors
 * leave), a CR LF after it, a space and a tab before it.
 */
const SURROUNDING_WHITESPACE: ReadonlyArray<{ key: string; says: string; before: string; after: string }> = [
  { key: 'trailing-line-feed', says: 'followed by a line feed', before: '', after: '\n' },
  { key: 'trailing-crlf', says: 'followed by a CR LF', before: '', after: '\r\n' },
  { key: 'leading-space', says: 'after a space', before: ' ', after: '' },
  { key: 'leading-tab', says: 'after a tab', before: '\t', after: '' },
  { key: 'surrounded-by-line-feeds', says: 'between line feeds', before: '\n', after: '\n' },
];

/**
 * The valid body with JSON whitespace around its text (SURROUNDING_WHITESPACE): the same JSON text
 * (RFC 8259 2), judged by the body JSON.parse makes of it, like any; a server that sniffs the text
 * for JSON by its first and last characters ("{" ... "}", without a trim) refuses it as malformed.
 */
function bodiesInWhitespace(card: OperationCard, element: Element): Made[] {
  const judge = (varied: RequestTemplate, _context: RequestContext) =>
    bodyExpectation(card, element, varied.body !== undefined && 'raw' in varied.body ? JSON.parse(varied.body.raw) : undefined, {
      identityChanged: false,
      bound: false,
    });
  const valid = { ...emptyTemplate(), body: { json: card.body!.empty } };
  return SURROUNDING_WHITESPACE.map(({ key, says, before, after }): Made => {
    const apply = (template: RequestTemplate) =>
      withBody(template, { raw: `${before}${JSON.stringify(jsonBodyOf(template) ?? card.body!.empty)}${after}` });
    return {
      operator: 'whitespace',
      key,
      says: `the valid body's JSON text ${says}`,
      apply,
      judge,
      expect: judge(apply(valid), canonicalContext),
      ...(key === 'trailing-line-feed' ? {} : { extended: true }),
    };
  });
}

/**
 * The whole body as a JSON list holding one valid body (a batch of one): the request's own body, and
 * the operation's fullest valid body. A list is no object (the body's object clause), though a body
 * reader shared with batch endpoints, which unwraps a list of one (or takes a list's first item),
 * reads the object inside. Judged by the body it makes, like any.
 */
function listsOfOneBody(card: OperationCard, element: Element): Made[] {
  const judge = (varied: RequestTemplate, _context: RequestContext) =>
    bodyExpectation(card, element, jsonBodyOf(varied), { identityChanged: false, bound: false });
  const fullest = (context: RequestContext) =>
    card.body!.full(context.fixtures, { global: context.clients.global ?? canonicalContext.clients.global! });
  const made = (key: string, says: string, item: (template: RequestTemplate, context: RequestContext) => unknown): Made => {
    const apply = (template: RequestTemplate, context: RequestContext) => withBody(template, { json: [item(template, context)] });
    const valid = { ...emptyTemplate(), body: { json: card.body!.empty } };
    return {
      operator: 'other-type',
      key,
      says,
      apply,
      judge,
      expect: judge(apply(valid, canonicalContext), canonicalContext),
      extended: true,
    };
  };
  return [
    made('list-of-one-valid-body', 'a JSON list holding the valid body (a batch of one)', (template) => jsonBodyOf(template) ?? {}),
    made('list-of-one-fullest-body', 'a JSON list holding the fullest valid body, every field set (a batch of one)', (_t, context) =>
      fullest(context),
    ),
  ];
}

/**
 * The names of the envelopes a body may come wrapped in: JSON:API's and many SDKs' "data", the
 * "payload" of message formats, and the operation's resource ("ticket", from its card).
 */
function envelopeNames(card: OperationCard): string[] {
  return [...new Set(['data', 'payload', card.faultPrefix])];
}

/**
 * The fullest valid body wrapped in an envelope, an object whose one member holds it
 * ({"data": {...}}): the envelope's name is an unknown property all the same, though a lenient body
 * reader that unwraps an object of one member named so reads the body inside. Judged by the body
 * it makes, like any; against test doubles.
 */
function envelopedBodies(card: OperationCard, element: Element): Made[] {
  const judge = (varied: RequestTemplate, _context: RequestContext) =>
    bodyExpectation(card, element, jsonBodyOf(varied), { identityChanged: false, bound: false });
  const fullest = (context: RequestContext) =>
    card.body!.full(context.fixtures, { global: context.clients.global ?? canonicalContext.clients.global! });
  return envelopeNames(card).map((name): Made => {
    const apply = (template: RequestTemplate, context: RequestContext) => withBody(template, { json: { [name]: fullest(context) } });
    const valid = { ...emptyTemplate(), body: { json: card.body!.empty } };
    return {
      operator: 'extra-part',
      key: `envelope-${name}`,
      says: `the fullest valid body wrapped in an envelope, {"${name}": {...}}`,
      apply,
      judge,
      expect: judge(apply(valid, canonicalContext), canonicalContext),
      extended: true,
    };
  });
}

function withoutContentType(headers: RequestTemplate['headers']): RequestTemplate['headers'] {
  const { 'content-type': _gone, ...rest } = headers;
  return rest;
}

function emptyTemplate(): RequestTemplate {
  return { method: 'POST', path: [], query: [], headers: {}, credential: { kind: 'none' } };
}

/** The field's schema at the contract level and at the observed level (either may be missing). */
function schemaNodes(element: Element) {
  return [element.schemas?.contract, element.schemas?.observed];
}

/**
 * Booleans written as text, other than "true" and "on" (rows of their own): a config file's, a
 * database flag's, a CLI's, the words of feature-flag services, status columns and checkbox
 * states ("enabled", "active", "checked"), in their letter cases a reader may fold, and the
 * spellings of languages whose booleans are characters or numbers.
 */
const BOOLEAN_SPELLINGS = [
  'false',
  'Y',
  'N',
  'yes',
  'no',
  '1',
  '0',
  'off',
  't',
  'f',
  'enabled',
  'disabled',
  'active',
  'inactive',
  'checked',
  'unchecked',
  'TRUE',
  'False',
  // The languages' own: ABAP's abap_true ("X"), Visual Basic's True written as a number ("-1"),
  // Delphi's and Pascal's single letters in capitals.
  'X',
  '-1',
  'T',
  'F',
];

/** First characters a normaliser may drop before a length is counted (each put in place of the value's first ones). */
const DROPPED_LEADERS: ReadonlyArray<{ name: string; character: string }> = [
  { name: 'space', character: ' ' },
  // Then a member (name=value), so that a query normaliser (URLSearchParams) keeps the rest as it is.
  { name: 'question-mark', character: '?a=' },
  { name: 'hash', character: '#' },
  { name: 'slash', character: '/' },
  { name: 'dot', character: '.' },
  // A wildcard's first label, which a DNS checker takes off a domain before it resolves the name.
  { name: 'wildcard-label', character: '*.' },
];

/** The formats of a field that holds an absolute URL. */
const URL_FORMATS = ['strict-https-uri', 'uri'];

/** A URL's path (and query) as a relative reference, never empty and never starting with "/" twice. */
function relativePathOf(url: string): string {
  const rest = url.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i, '');
  const path = rest.replace(/^\/+/, '');
  return path === '' ? 'icon.png' : path;
}

/** Whether a field's schema at either level has the format. */
function hasFormat(element: Element, format: string): boolean {
  return schemaNodes(element).some((node) => node?.format === format);
}

/**
 * A copy of a JSON value whose first array on the path holds an item with the value at the rest of
 * the path set, then the item as it is (its valid twin): of two items with one key, a list made
 * into a map keeps the later.
 */
function withValueThenValidTwin(json: unknown, path: readonly string[], value: unknown, validItem: unknown): unknown {
  const at = path.indexOf('[]');
  const list = valueAt(json, path.slice(0, at));
  const first: unknown = Array.isArray(list) && list.length > 0 ? list[0] : validItem;
  return withValueAt(json, path.slice(0, at), [withValueAt(first, path.slice(at + 1), value), first]);
}

/** Typed wrappers of a number in storage formats, each of which that format's parser reads as the number. */
const NUMBER_WRAPPERS: ReadonlyArray<{ key: string; says: (n: number) => string; wrap: (n: number) => JsonObject }> = [
  {
    key: 'extended-json-number',
    says: (n) =>
      `the number in Extended JSON, {"${Number.isInteger(n) ? '$numberInt' : '$numberDouble'}": "${n}"} (a document database's form)`,
    wrap: (n) => ({ [Number.isInteger(n) ? '$numberInt' : '$numberDouble']: String(n) }),
  },
  {
    key: 'attribute-value-number',
    says: (n) => `the number as a DynamoDB attribute value, {"N": "${n}"}`,
    wrap: (n) => ({ N: String(n) }),
  },
];

/** The Avro type a JSON value is written as in a union branch: string, int or double, boolean, array, map; none for null. */
function avroTypeOf(value: unknown): string | undefined {
  if (typeof value === 'string') return 'string';
  if (typeof value === 'number') return Number.isInteger(value) ? 'int' : 'double';
  if (typeof value === 'boolean') return 'boolean';
  if (Array.isArray(value)) return 'array';
  if (value !== null && typeof value === 'object') return 'map';
  return undefined;
}

/** Round units a range may be given in by a form or preset: a whole number of minutes, hours, days. */
const ROUND_UNITS: ReadonlyArray<{ size: number; says: string }> = [
  { size: 60, says: 'minutes' },
  { size: 3600, says: 'hours' },
  { size: 86400, says: 'days' },
];

/**
 * The nearest round values outside an integer field's range (the first whole number of minutes,
 * hours and days past its maximum, and before its minimum), where they are not the bound's own
 * neighbour: a range check skipped for the values a preset menu offers takes them in.
 */
function roundValuesOutOfRange(made: MakeVariant, element: Element, types: JsonType[]): Made[] {
  if (!types.includes('integer')) return [];
  const out: Made[] = [];
  const seen = new Set<number>();
  for (const node of schemaNodes(element)) {
    for (const { size, says } of ROUND_UNITS) {
      const edges: Array<{ value: number; side: string } | undefined> = [
        typeof node?.maximum === 'number'
          ? { value: (Math.floor(node.maximum / size) + 1) * size, side: `past the maximum ${node.maximum}` }
          : undefined,
        typeof node?.minimum === 'number'
          ? { value: (Math.ceil(node.minimum / size) - 1) * size, side: `before the minimum ${node.minimum}` }
          : undefined,
      ];
      for (const edge of edges) {
        // The bound's own neighbour (max + 1, min - 1) is a row of the bounds already.
        const neighbour = edge && (edge.value === Number(node?.maximum) + 1 || edge.value === Number(node?.minimum) - 1);
        if (!edge || neighbour || seen.has(edge.value) || withinRange(element, edge.value)) continue;
        seen.add(edge.value);
        out.push(
          made('bounds', `round-${edge.value}`, `${edge.value}, a whole number of ${says} ${edge.side}`, () => edge.value, {
            bound: true,
            extended: true,
            aloneOnly: true,
          }),
        );
      }
    }
    // Past the maximum by a power of ten with more digits than it has, so that its low digits are a
    // value in range (the maximum's own last digits, or the valid value's): a range check made after
    // the number is cut to as many digits as the maximum has (a fixed-width decimal field, COBOL's
    // PIC 9(n)) takes it in.
    if (typeof node?.maximum === 'number' && node.maximum > 0) {
      const power = 10 ** String(Math.trunc(node.maximum)).length;
      const low = Math.trunc(node.maximum);
      const value = power + low;
      if (!seen.has(value) && !withinRange(element, value)) {
        seen.add(value);
        out.push(
          made(
            'bounds',
            'decimal-wrap',
            `${value}, past the maximum ${node.maximum}, whose last ${String(low).length} digits are the maximum`,
            () => value,
            {
              bound: true,
              extended: true,
              aloneOnly: true,
            },
          ),
        );
      }
    }
  }
  return out;
}

/** The first even integer past 2^53 (a double holds it exactly, JavaScript's Number.isSafeInteger does not). */
const PAST_SAFE_INTEGER = 2 ** 53 + 2;

/**
 * An integer past JavaScript's safe range (2^53 + 2), where the field's range has no maximum that
 * refuses it: a valid value, judged by its schema like any, though a validator that refuses unsafe
 * integers by default (Joi's number(), a check with Number.isSafeInteger) refuses it.
 */
function integersPastSafeRange(made: MakeVariant, element: Element, types: JsonType[]): Made[] {
  if (!types.includes('integer') || !withinRange(element, PAST_SAFE_INTEGER)) return [];
  return [
    made('bounds', 'past-safe-integer', `${PAST_SAFE_INTEGER} (2^53 + 2, past the safe integers of a double)`, () => PAST_SAFE_INTEGER, {
      extended: true,
      aloneOnly: true,
    }),
  ];
}

/** Values a cleaning step drops from a map or a list as empty (null: "delete this key"; "": an unset form field). */
const EMPTY_ENTRIES: ReadonlyArray<{ key: string; says: string; value: unknown }> = [
  { key: 'null', says: 'null', value: null },
  { key: 'empty-string', says: 'an empty string', value: '' },
];

/**
 * One entry over a count's maximum (properties, items), the last entry empty: a count made after
 * empty entries are dropped takes it for the maximum.
 */
function countsWithAnEmptyEntry(made: MakeVariant, element: Element, valid: unknown): Made[] {
  const out: Made[] = [];
  for (const node of schemaNodes(element)) {
    for (const empty of EMPTY_ENTRIES) {
      if (typeof node?.maxProperties === 'number') {
        const at = node.maxProperties;
        const key = `bound-${at + 1} properties-last-${empty.key}`;
        if (out.some((v) => v.key === key)) continue;
        const entries = (): Array<[string, unknown]> => [
          ...Array.from({ length: at }, (_, i): [string, unknown] => [`key${i}`, 'value']),
          [`key${at}`, empty.value],
        ];
        const full = () => Object.fromEntries(entries());
        out.push(
          made('bounds', key, `${at + 1} properties, one over the bound, the last one ${empty.says}`, full, {
            bound: true,
            extended: true,
            aloneOnly: true,
          }),
        );
      }
      if (typeof node?.maxItems === 'number') {
        const at = node.maxItems;
        const key = `bound-${at + 1} items-last-${empty.key}`;
        if (out.some((v) => v.key === key)) continue;
        const items = () => [...arrayOfCount(valid, at, node.items as JsonObject | undefined), empty.value];
        out.push(
          made('bounds', key, `${at + 1} items, one over the bound, the last one ${empty.says}`, items, {
            bound: true,
            extended: true,
            aloneOnly: true,
          }),
        );
      }
    }
  }
  return out;
}

/** A letter and a combining mark: two code points, one grapheme, one code point once NFC-composed (é). */
const LETTER_AND_MARK = 'e\u0301';

/**
 * A string one code point over its maximum length whose last two code points are a letter and a
 * combining mark: a length counted in grapheme clusters, or after NFC normalisation, takes it for
 * one at the bound (JSON Schema's maxLength counts code points).
 */
function lengthsOverInCodePoints(made: MakeVariant, element: Element, valid: unknown): Made[] {
  const out: Made[] = [];
  for (const node of schemaNodes(element)) {
    const at = node?.maxLength;
    if (typeof at !== 'number' || at < 1 || out.some((v) => v.key === `bound-${at + 1}-combining-mark`)) continue;
    out.push(
      made(
        'bounds',
        `bound-${at + 1}-combining-mark`,
        `${at + 1} characters, one over the bound, the last two an e and a combining acute accent (${at} graphemes)`,
        () => `${stringOfLength(valid, at - 1)}${LETTER_AND_MARK}`,
        { bound: true, extended: true, aloneOnly: true },
      ),
    );
  }
  return out;
}

/** The seconds from now to the start of a UTC day one to two days ahead (dayStartAhead), at least and at most. */
const DAY_AHEAD_SECONDS = { least: 86_400, most: 172_800 };

/**
 * The start of the UTC day after the next one, as an ISO date-time: the same for every request of a
 * day, so two runs of one day send the same body (cli/test/seed-independence.test.ts).
 */
function dayStartAhead(now = Date.now()): string {
  const day = 86_400_000;
  return new Date((Math.floor(now / day) + 2) * day).toISOString();
}

/** Fractions JavaScript and JSON write without a dot (exponent notation), the smallest first. */
const DOTLESS_FRACTIONS = [1e-7, -1e-7];

/** Whether a number is within the range of a field at both levels (its minimum and maximum, where it has them). */
function withinRange(element: Element, n: number): boolean {
  return schemaNodes(element).every(
    (node) => !node || ((typeof node.minimum !== 'number' || n >= node.minimum) && (typeof node.maximum !== 'number' || n <= node.maximum)),
  );
}

/** The number next to `value` away from zero: its neighbour among the 64-bit floats. */
export function nextNumber(value: number): number {
  const bits = new BigInt64Array(new Float64Array([value]).buffer);
  bits[0] = bits[0]! + 1n;
  return new Float64Array(bits.buffer)[0]!;
}

/**
 * A field of the operation's fullest valid body, as a body of its own: a number or a boolean first
 * (valid whatever the target's fixtures), else any value that is no object or list.
 */
function protoHeld(card: OperationCard): JsonObject {
  const full = Object.entries(card.body!.full(canonicalContext.fixtures, { global: canonicalContext.clients.global! }));
  const field =
    full.find(([, value]) => typeof value === 'number' || typeof value === 'boolean') ??
    full.find(([, value]) => value === null || typeof value !== 'object');
  return field ? { [field[0]]: field[1] } : { x_conformance_suite: true };
}

/** Members that frameworks read as annotations or metadata and drop before a payload is checked. */
const ANNOTATION_MEMBERS: ReadonlyArray<{ key: string; name: string }> = [
  { key: 'odata-type', name: '@odata.type' },
  { key: 'json-ld-type', name: '@type' },
  { key: 'schema', name: '$schema' },
  { key: 'typename', name: '__typename' },
  { key: 'hal-links', name: '_links' },
];

/** An unknown member named as an OpenAPI vendor extension ("x-..."). */
const EXTENSION_MEMBER = 'x-conformance-suite';

/**
 * An object field's valid value written as a string: its JSON text (a reviver that parses strings
 * holding JSON objects, written for clients that encode nested members twice, reads the object),
 * and its scalar members in query-string form ("a=1&b=2", what a command-line client's short form
 * or querystring.parse turns into an object). Each is a string, another type, judged like any.
 */
function objectsAsText(made: MakeVariant, types: JsonType[], valid: unknown): Made[] {
  if (!types.includes('object') || types.includes('string') || valid === null || typeof valid !== 'object' || Array.isArray(valid))
    return [];
  const out = [
    made(
      'other-type',
      'json-text',
      `a string of its valid value's JSON text (${JSON.stringify(JSON.stringify(valid))})`,
      (v) => JSON.stringify(v),
      {
        extended: true,
        aloneOnly: true,
      },
    ),
  ];
  // Its JSON text in base64 and in base64url (a settings export, a token-like blob): a reader that
  // decodes a string holding an encoded JSON object reads the object.
  const base64 = Buffer.from(JSON.stringify(valid)).toString('base64');
  const base64url = Buffer.from(JSON.stringify(valid)).toString('base64url');
  out.push(
    made(
      'other-type',
      'json-base64',
      `a string of its valid value's JSON text in base64 ("${base64}")`,
      (v) => Buffer.from(JSON.stringify(v)).toString('base64'),
      { extended: true, aloneOnly: true },
    ),
  );
  if (base64url !== base64)
    out.push(
      made(
        'other-type',
        'json-base64url',
        `a string of its valid value's JSON text in base64url ("${base64url}")`,
        (v) => Buffer.from(JSON.stringify(v)).toString('base64url'),
        { extended: true, aloneOnly: true },
      ),
    );
  const query = queryStringOf(valid as JsonObject);
  if (query !== '') {
    out.push(
      made(
        'other-type',
        'query-string',
        `a string of its valid value's scalar members in query-string form ("${query}")`,
        (v) => (isNonEmptyObject(v) ? queryStringOf(v) : query),
        { extended: true, aloneOnly: true },
      ),
    );
  }
  return out;
}

/** An object's scalar members as a query string ("name=value&..."); lists and objects left out. */
function queryStringOf(value: JsonObject): string {
  const scalars = Object.entries(value).filter((entry): entry is [string, string | number | boolean] =>
    ['string', 'number', 'boolean'].includes(typeof entry[1]),
  );
  return new URLSearchParams(scalars.map(([name, member]): [string, string] => [name, String(member)])).toString();
}

/** A string the valid value's field never holds, replaced in the body's JSON text by the big integer. */
const BIG_INTEGER_MARK = 'x-conformance-big-integer';
/** The fewest digits of a JSON integer beyond 2^53 (9007199254740992 has 16). */
const BIG_INTEGER_DIGITS = 17;

/** An integer's JSON text of `length` digits ("98765432109876543..."): beyond 2^53 from 17 digits. */
function bigIntegerText(length: number): string {
  return Array.from({ length }, (_, i) => String(9 - (i % 10))).join('');
}

/**
 * A string field's value as a JSON integer beyond 2^53, of as many digits as the valid value has
 * characters (at least 17): a parser set to keep such integers as their text, so that no id loses
 * digits (json-bigint's storeAsString, lossless-json), hands the field a string of digits, a
 * well-formed id of an all-digit alphabet. Written in the JSON text itself (a double would lose the
 * digits); judged on the body JSON.parse makes of it, where it is a number, another type.
 */
function bigIntegerFor(card: OperationCard, element: Element, types: JsonType[], valid: unknown): Made[] {
  if (!types.includes('string') || types.includes('integer') || types.includes('number') || typeof valid !== 'string') return [];
  const path = element.path!;
  const digits = (context: RequestContext) => {
    const value = validValueAt(card, path, context);
    return bigIntegerText(Math.max(BIG_INTEGER_DIGITS, typeof value === 'string' ? [...value].length : 0));
  };
  const apply = (template: RequestTemplate, context: RequestContext) => {
    const text = JSON.stringify(withValueAt(jsonBodyOf(template), path, BIG_INTEGER_MARK));
    return withBody(template, { raw: text.replace(JSON.stringify(BIG_INTEGER_MARK), digits(context)) });
  };
  const shown = digits(canonicalContext);
  const variant = {
    operator: 'other-type' as const,
    key: 'big-integer',
    says: `the JSON integer ${shown} (${shown.length} digits, beyond 2^53)`,
    apply,
    extended: true,
    aloneOnly: true,
  };
  return [
    judgedOnItsBody(card, element, variant, (varied) =>
      varied.body !== undefined && 'raw' in varied.body ? (JSON.parse(varied.body.raw) as unknown) : undefined,
    ),
  ];
}

const INTEGER_TEXT_MARK = 'x-conformance-integer-text';

/**
 * A number field's valid value in the target's context (`valid` where it has none), and the
 * variation that writes it in the body's JSON text as `text` makes it.
 */
function numberWrittenAs(card: OperationCard, path: readonly string[], valid: number, text: (n: number) => string) {
  const number = (context: RequestContext) => {
    const value = validValueAt(card, path, context);
    return typeof value === 'number' ? value : valid;
  };
  const apply = (template: RequestTemplate, context: RequestContext) => {
    const body = JSON.stringify(withValueAt(jsonBodyOf(template), path, INTEGER_TEXT_MARK));
    return withBody(template, { raw: body.replace(JSON.stringify(INTEGER_TEXT_MARK), text(number(context))) });
  };
  return { number, apply };
}

/** Other JSON texts of a whole number (RFC 8259 6): in exponent notation, and with a zero fraction. */
const INTEGER_SPELLINGS: ReadonlyArray<{ key: string; says: string; text: (n: number) => string }> = [
  { key: 'exponent-notation', says: 'in exponent notation', text: (n) => n.toExponential().replace('e+', 'e') },
  { key: 'zero-fraction', says: 'with a zero fraction', text: (n) => `${n}.0` },
];

/**
 * An integer field's valid value written as other JSON texts of the same number (INTEGER_SPELLINGS):
 * the same number (RFC 8259 6; JSON Schema's integer is a number with no fractional part, however it
 * is written), judged on the body JSON.parse makes of it, like any; a server that parses the
 * number's text as digits only (strconv.ParseInt, a /^-?\d+$/ test) refuses it. Written in the JSON
 * text itself (JSON.stringify writes the shortest form).
 */
function integerSpellings(card: OperationCard, element: Element, types: JsonType[], valid: unknown): Made[] {
  if (!types.includes('integer') || typeof valid !== 'number' || !Number.isInteger(valid)) return [];
  const path = element.path!;
  // Zero written with a minus sign, where the range holds zero: the number 0 (RFC 8259 6 allows
  // "-0"; JSON.parse reads -0, which every range comparison takes for 0), though a check of the
  // number's text for a leading "-", or Object.is(value, -0), takes it for a negative number.
  const zero = withinRange(element, 0) ? [{ key: 'negative-zero', says: 'zero written with a minus sign', text: () => '-0' }] : [];
  return [...INTEGER_SPELLINGS, ...zero].map(({ key, says, text }) => {
    const { number, apply } = numberWrittenAs(card, path, valid, text);
    // Accepted, it bears on the field's range (zero) or its type (a spelling): the clause a server
    // that reads the text breaks.
    const typeClause = `${card.key}.body.${fieldName(path)}.type`;
    const judge = (varied: RequestTemplate, _context: RequestContext): Expectation => {
      const body = varied.body !== undefined && 'raw' in varied.body ? (JSON.parse(varied.body.raw) as unknown) : undefined;
      const expectation = bodyExpectation(card, element, body, { identityChanged: false, bound: key === 'negative-zero' });
      if (key === 'negative-zero' || !hasClause(typeClause) || !('checks' in expectation)) return expectation;
      const checks = expectation.checks.map((check) =>
        check.outcome.kind === 'accept' && check.clause === card.body!.optionalClause ? { ...check, clause: typeClause } : check,
      );
      return { ...expectation, checks };
    };
    return {
      operator: 'encoding' as const,
      key,
      says: key === 'negative-zero' ? `${says} (-0)` : `its valid value ${says} (${text(number(canonicalContext))})`,
      apply,
      judge,
      expect: judge(apply({ ...emptyTemplate(), body: { json: {} } }, canonicalContext), canonicalContext),
      extended: true,
      aloneOnly: true,
    };
  });
}

/**
 * Texts of a number that are not JSON (RFC 8259 6: no leading zero, no "+", digits after a point,
 * no NaN or Infinity, decimal only), which a lenient parser reads as the number (Jackson's
 * ALLOW_LEADING_ZEROS_FOR_NUMBERS, Python's json.loads taking NaN, JSON5): the body is not JSON, so
 * the field holds no number of its type.
 */
const NUMBERS_NOT_JSON: ReadonlyArray<{ key: string; says: (text: string) => string; text: (n: number) => string }> = [
  { key: 'leading-zero', says: (t) => `its valid value with a leading zero (${t}, not JSON)`, text: (n) => (n < 0 ? `-0${-n}` : `0${n}`) },
  { key: 'plus-sign', says: (t) => `its valid value with a plus sign (${t}, not JSON)`, text: (n) => (n < 0 ? `${n}` : `+${n}`) },
  { key: 'trailing-point', says: (t) => `its valid value with a point and no digit after it (${t}, not JSON)`, text: (n) => `${n}.` },
  { key: 'hexadecimal', says: (t) => `its valid value in hexadecimal (${t}, not JSON)`, text: (n) => `0x${n.toString(16)}` },
  { key: 'nan', says: (t) => `${t} in place of its value (not JSON)`, text: () => 'NaN' },
  { key: 'infinity', says: (t) => `${t} in place of its value (not JSON)`, text: () => 'Infinity' },
];

/** A number field's value written as each of NUMBERS_NOT_JSON in the body's text: refused, and observed as the malformed JSON it is. */
function numbersNotJson(card: OperationCard, element: Element, types: JsonType[], valid: unknown): Made[] {
  if (!types.some((t) => t === 'integer' || t === 'number') || typeof valid !== 'number' || !Number.isInteger(valid)) return [];
  const path = element.path!;
  const typeClause = `${card.key}.body.${fieldName(path)}.type`;
  const expect: Expectation = {
    checks: [
      ...(hasClause(typeClause) ? [{ clause: typeClause, outcome: refused }] : []),
      { clause: 'errors.400.body', outcome: observedError('malformed_json') },
    ],
    source: 'RFC 8259 6: the text is no JSON number, so the body is not JSON and the field holds no number',
  };
  return NUMBERS_NOT_JSON.map(({ key, says, text }) => {
    const { number, apply } = numberWrittenAs(card, path, valid, text);
    return {
      operator: 'encoding' as const,
      key: `not-json-${key}`,
      says: says(text(number(canonicalContext))),
      apply,
      expect,
      extended: true,
      aloneOnly: true,
    };
  });
}

/** A variation judged by the body it makes (read by `bodyOf`), like any; its expectation that in the canonical context. */
function judgedOnItsBody(
  card: OperationCard,
  element: Element,
  variant: Omit<Made, 'judge' | 'expect'>,
  bodyOf: (varied: RequestTemplate) => unknown = jsonBodyOf,
): Made {
  const judge = (varied: RequestTemplate, _context: RequestContext) =>
    bodyExpectation(card, element, bodyOf(varied), { identityChanged: false, bound: false });
  return {
    ...variant,
    judge,
    expect: judge(variant.apply({ ...emptyTemplate(), body: { json: {} } }, canonicalContext), canonicalContext),
  };
}

/** A character outside the Basic Multilingual Plane: one code point, two UTF-16 code units. */
const ASTRAL = '\u{1F642}';

/** Whether a schema node holds a string's characters to a pattern, a format or a list. */
const restrictsCharacters = (node: JsonObject | undefined) =>
  node?.pattern !== undefined || node?.format !== undefined || node?.enum !== undefined;

/**
 * Strings of characters outside the BMP (two UTF-16 code units each) at a maximum length and one
 * over, for a string field whose characters are free, and for the values of an object whose members
 * are such strings (metadata): JSON Schema's maxLength counts code points, so the one at the bound
 * is accepted, though a length counted in code units (String.length) takes it for twice as long;
 * the one over is refused, though a check after characters outside the BMP are dropped (a
 * three-byte utf8 column's sanitiser) takes it for empty.
 */
function lengthsInAstralCharacters(made: MakeVariant, element: Element): Made[] {
  const out: Made[] = [];
  const nodes = schemaNodes(element);
  const add = (key: string, at: number, says: string, make: (n: number) => unknown) => {
    for (const n of [at, at + 1]) {
      if (out.some((v) => v.key === `${key}-${n}-astral`)) continue;
      const side = n === at ? 'at the bound' : 'one over the bound';
      out.push(
        made(
          'bounds',
          `${key}-${n}-astral`,
          `${says} ${n} characters outside the BMP (${2 * n} UTF-16 code units), ${side}`,
          () => make(n),
          {
            bound: true,
            extended: true,
            aloneOnly: true,
          },
        ),
      );
    }
  };
  if (!nodes.some(restrictsCharacters)) {
    for (const node of nodes) {
      if (typeof node?.maxLength === 'number' && typesOf(node).includes('string'))
        add('bound', node.maxLength, 'a string of', (n) => ASTRAL.repeat(n));
    }
  }
  for (const node of nodes) {
    const values = node?.additionalProperties;
    if (values === null || typeof values !== 'object' || Array.isArray(values)) continue;
    const member = values as JsonObject;
    if (typeof member.maxLength === 'number' && typesOf(member).includes('string') && !restrictsCharacters(member))
      add('value-bound', member.maxLength, 'with a member whose value is', (n) => ({ key0: ASTRAL.repeat(n) }));
  }
  return out;
}

// --- Held-out round 13 (nested rules): required members, case twins, whitespace runs, normalised values ---

/** Checks of a field's own value against its schema node, one per node (compiled once). */
const nodeChecks = new WeakMap<JsonObject, ValidateFunction>();
const nodeAjvs: Partial<Record<'contract' | 'observed', ReturnType<typeof createAjv>>> = {};

/** Whether a node at a level accepts a value. */
function nodeAccepts(node: JsonObject, level: 'contract' | 'observed', value: unknown): boolean {
  let check = nodeChecks.get(node);
  if (!check) {
    const ajv = (nodeAjvs[level] ??= createAjv({ level, strictTypes: false }));
    nodeChecks.set(node, (check = ajv.compile(node)));
  }
  return check(value);
}

/** Whether a value fits a field's own schema at both levels (where the field has one). */
function fieldAccepts(element: Element, value: unknown): boolean {
  const { contract, observed: seen } = element.schemas ?? {};
  return (!contract || nodeAccepts(contract, 'contract', value)) && (!seen || nodeAccepts(seen, 'observed', value));
}

/**
 * A required member absent while every other member of its object is present at its valid value:
 * a rule written as "at least one of the members" (anyOf of each one required), or a required
 * member defaulted from a sibling, takes the object for complete, though the plain absent row (the
 * object left empty) is refused. Only where the complete object is valid, so that the member's
 * absence is all that is wrong.
 */
function absentBesideSiblings(card: OperationCard, element: Element): Made[] {
  const path = element.path!;
  if (!element.required || path.length < 2) return [];
  const parent = path.slice(0, -1);
  const name = path[path.length - 1]!;
  const siblings = [
    ...new Set(
      (['contract', 'observed'] as const).flatMap((level) =>
        Object.keys((schemaAt(card, parent, level)?.properties as JsonObject | undefined) ?? {}),
      ),
    ),
  ].filter((sibling) => sibling !== name);
  if (siblings.length === 0) return [];
  const members = (context: RequestContext) =>
    Object.fromEntries(siblings.map((sibling) => [sibling, validValueAt(card, [...parent, sibling], context)]));
  const complete = withValueAt(aloneBody(card, path, canonicalContext), parent, {
    ...members(canonicalContext),
    [name]: validValueAt(card, path, canonicalContext),
  });
  if (!validator(card.body!.schema, 'observed')(complete)) return [];
  const apply = (template: RequestTemplate, context: RequestContext) =>
    withBody(template, { json: withValueAt(jsonBodyOf(template), parent, members(context)) });
  return [
    judgedOnItsBody(card, element, {
      operator: 'absent',
      key: 'absent-siblings-present',
      says: `absent, every other member of its object present at a valid value (${siblings.join(', ')})`,
      apply,
      extended: true,
      aloneOnly: true,
    }),
  ];
}

/**
 * One property over a map's maximum count, two of whose names differ only in letter case
 * ("key0", "KEY0"): a count made after the names are case-folded (a case-insensitive store's keys)
 * takes it for the maximum. JSON names are case-sensitive: two names, two properties.
 */
function countsWithCaseTwins(made: MakeVariant, element: Element): Made[] {
  const out: Made[] = [];
  for (const node of schemaNodes(element)) {
    if (typeof node?.maxProperties !== 'number') continue;
    const at = node.maxProperties;
    const key = `bound-${at + 1} properties-case-twins`;
    if (at < 1 || out.some((v) => v.key === key)) continue;
    const names = [...Array.from({ length: at }, (_, i) => `key${i}`), swapCase('key0')];
    out.push(
      made(
        'bounds',
        key,
        `${at + 1} properties, one over the bound, two of whose names differ only in case (key0, ${swapCase('key0')})`,
        () => Object.fromEntries(names.map((name) => [name, 'value'])),
        { bound: true, extended: true, aloneOnly: true },
      ),
    );
  }
  return out;
}

/** Runs of whitespace a text normaliser collapses to one space (value.replace(/\s+/g, " ")). */
const WHITESPACE_RUNS: ReadonlyArray<{ name: string; says: string; run: string }> = [
  { name: 'double-space', says: 'two spaces', run: '  ' },
  { name: 'space-tab', says: 'a space and a tab', run: ' \t' },
  { name: 'two-line-feeds', says: 'two line feeds', run: '\n\n' },
];

/** A string of `length` characters (from `valid`'s alphabet) holding `run` in its middle. */
function withRunInside(valid: unknown, length: number, run: string): string {
  const text = stringOfLength(valid, Math.max(2, length - run.length));
  const middle = Math.floor(text.length / 2);
  return `${text.slice(0, middle)}${run}${text.slice(middle)}`;
}

/**
 * A string one over its maximum length holding a run of whitespace (two spaces, a space and a tab,
 * two line feeds), for a string field and for the values of a map whose members are bounded
 * strings (metadata): a length measured after whitespace is collapsed takes it for one at the
 * bound. Only where the field takes the run (its pattern or format may not): the same string at
 * the bound is valid, so that the length is all that is wrong.
 */
function lengthsOverWithWhitespaceRuns(made: MakeVariant, element: Element, valid: unknown): Made[] {
  const out: Made[] = [];
  const targets: Array<{ key: string; says: string; at: number; fits: (text: string) => boolean; wrap: (text: string) => unknown }> = [];
  const isString = schemaNodes(element).some((node) => typesOf(node).includes('string'));
  for (const node of schemaNodes(element)) {
    if (isString && typeof node?.maxLength === 'number')
      targets.push({ key: 'bound', says: '', at: node.maxLength, fits: (text) => fieldAccepts(element, text), wrap: (text) => text });
    const values = node?.additionalProperties;
    if (values === null || typeof values !== 'object' || Array.isArray(values)) continue;
    const member = values as JsonObject;
    const level = node === element.schemas?.contract ? 'contract' : 'observed';
    if (typeof member.maxLength === 'number' && typesOf(member).includes('string'))
      targets.push({
        key: 'value-bound',
        says: 'with a member whose value is ',
        at: member.maxLength,
        fits: (text) => nodeAccepts(member, level, text),
        wrap: (text) => ({ key0: text }),
      });
  }
  for (const { key, says, at, fits, wrap } of targets) {
    const alphabet = key === 'bound' ? valid : undefined;
    for (const { name, says: run, run: characters } of WHITESPACE_RUNS) {
      const id = `${key}-${at + 1}-${name}`;
      if (at < 3 || out.some((v) => v.key === id) || !fits(withRunInside(alphabet, at, characters))) continue;
      out.push(
        made(
          'bounds',
          id,
          `${says}${at + 1} characters, one over the bound, holding ${run} (${at} once whitespace is collapsed)`,
          () => wrap(withRunInside(alphabet, at + 1, characters)),
          { bound: true, extended: true, aloneOnly: true },
        ),
      );
    }
  }
  return out;
}

const HEX_DIGITS = '0123456789abcdef';

/** The groups of a UUID's 32 hexadecimal digits. */
const UUID_GROUPS = [8, 4, 4, 4, 12];

/** A text cut into groups of the given sizes (the last repeated), joined with hyphens. */
function grouped(text: string, sizes: readonly number[]): string {
  const parts: string[] = [];
  let at = 0;
  for (let i = 0; at < text.length; i += 1) {
    const size = sizes[Math.min(i, sizes.length - 1)]!;
    parts.push(text.slice(at, at + size));
    at += size;
  }
  return parts.join('-');
}

/**
 * Ways a server may normalise a string before its checks, each with a value made from a valid one
 * and the value the normaliser turns it into: hyphens removed (ids copied with separators, a UUID's
 * dashes), and a slug helper's separators and case (underscores, spaces and dots to hyphens,
 * capitals to small letters).
 */
const NORMALISATIONS: ReadonlyArray<{
  key: string;
  says: string;
  make: (valid: string, maxLength: number | undefined) => string | undefined;
  normalised: (value: string) => string;
}> = [
  {
    key: 'hyphens-between-groups',
    says: 'with a hyphen after every four characters (valid once hyphens are removed)',
    make: (valid) => (valid.length > 4 ? grouped(valid, [4]) : undefined),
    normalised: (value) => value.replaceAll('-', ''),
  },
  {
    key: 'uuid-shaped',
    says: "as 32 hexadecimal digits in a UUID's groups, 8-4-4-4-12 (valid once hyphens are removed)",
    make: (valid) =>
      [...valid].length === 32 ? grouped([...valid].map((c) => HEX_DIGITS[c.codePointAt(0)! % 16]!).join(''), UUID_GROUPS) : undefined,
    normalised: (value) => value.replaceAll('-', ''),
  },
  {
    key: 'hyphen-over-bound',
    says: 'one character over its maximum length, one of them a hyphen (at the bound once hyphens are removed)',
    make: (valid, maxLength) => {
      if (maxLength === undefined || maxLength < 2) return undefined;
      const text = stringOfLength(valid, maxLength);
      return `${text.slice(0, Math.floor(maxLength / 2))}-${text.slice(Math.floor(maxLength / 2))}`;
    },
    normalised: (value) => value.replaceAll('-', ''),
  },
  ...[
    { name: 'underscore', character: '_' },
    { name: 'space', character: ' ' },
    { name: 'dot', character: '.' },
  ].map(({ name, character }) => ({
    key: `slug-${name}`,
    says: `with "${character}" for its hyphens, or inside it (valid once a slug helper makes it "-")`,
    make: (valid: string) =>
      valid.includes('-')
        ? valid.replaceAll('-', character)
        : `${valid.slice(0, Math.floor(valid.length / 2))}${character}${valid.slice(Math.floor(valid.length / 2))}`,
    normalised: (value: string) => value.replaceAll(character, '-'),
  })),
  {
    key: 'slug-capitals',
    says: 'in capitals (valid once a slug helper lower-cases it)',
    make: (valid) => valid.toUpperCase(),
    normalised: (value) => value.toLowerCase(),
  },
  // Markup a sanitiser in front of the validator strips (the value stored as sent): the length is
  // the text's as sent, tags and all.
  {
    key: 'html-tags-over-bound',
    says: 'its maximum length inside HTML tags (<b>...</b>), over it as sent (at the bound once the tags are stripped)',
    make: (valid, maxLength) => (maxLength === undefined ? undefined : `<b>${stringOfLength(valid, maxLength)}</b>`),
    normalised: (value) => value.replace(/<[^>]*>/g, ''),
  },
  // A percent-escape counted as the one character it decodes to (the length of the text a helper
  // decodes before measuring): the length is the text's as sent.
  {
    key: 'percent-escape-over-bound',
    says: 'two characters over its maximum length, one of them a "%20" (at the bound once percent-decoded)',
    make: (valid, maxLength) => {
      if (maxLength === undefined || maxLength < 2) return undefined;
      const text = stringOfLength(valid, maxLength - 1);
      return `${text.slice(0, Math.floor(maxLength / 2))}%20${text.slice(Math.floor(maxLength / 2))}`;
    },
    normalised: (value) => {
      try {
        return decodeURIComponent(value);
      } catch {
        return value;
      }
    },
  },
];

/** The id format of a field (one of observed.yaml identifier_formats), where it has one. */
function idFormatOf(element: Element): string | undefined {
  return schemaNodes(element).find((node) => typeof node?.format === 'string' && node.format in observed.identifier_formats)?.format as
    string | undefined;
}

/** A made-up id of a field's id format (observed.yaml identifier_formats), where it has one. */
function idOfFormat(element: Element): string | undefined {
  const format = idFormatOf(element);
  if (format === undefined) return undefined;
  const shape = shapeOfFormat(format);
  const alphabet = alphabetOf(shape);
  return (
    shape.prefix + Array.from({ length: shape.length - shape.prefix.length }, (_, i) => alphabet[(i * 7 + 3) % alphabet.length]).join('')
  );
}

/**
 * An id field's value without its type prefix ("org_"), the rest as it was, and the rest lengthened
 * to the whole id's length: ids pasted without their prefix, which an ensurePrefix helper repairs
 * before the format check. Judged by the field's rules like any value (its id format wants the
 * prefix).
 */
function withoutIdPrefix(made: MakeVariant, element: Element, valid: unknown): Made[] {
  const format = idFormatOf(element);
  if (format === undefined) return [];
  const { prefix } = shapeOfFormat(format);
  const id = typeof valid === 'string' && valid.startsWith(prefix) ? valid : idOfFormat(element);
  if (prefix === '' || id === undefined) return [];
  const restOf = (value: unknown) => (typeof value === 'string' && value.startsWith(prefix) ? value : id).slice(prefix.length);
  const wholeLength = (value: unknown) => {
    const rest = restOf(value);
    return rest.padEnd(rest.length + prefix.length, rest);
  };
  return [
    made('truncate', 'without-id-prefix', `without its id prefix ("${prefix}")`, restOf, { extended: true }),
    made('truncate', 'without-id-prefix-whole-length', `without its id prefix ("${prefix}"), as long as a whole id`, wholeLength, {
      extended: true,
    }),
  ];
}

/**
 * A string field's near misses that fit its rules (pattern, format, length) only once normalised
 * (NORMALISATIONS): refused as sent, though a server that normalises the value before its checks
 * (and stores it as sent, or normalised) takes it. Made from the valid value, or a made-up id of the
 * field's id format where the valid value is not of that id's shape (its length); kept where the
 * field refuses the value and takes its normalised form.
 */
function fitsOnlyNormalised(made: MakeVariant, element: Element, valid: unknown): Made[] {
  const nodes = schemaNodes(element);
  if (!nodes.some((node) => typesOf(node).includes('string')) || nodes.some((node) => node?.enum !== undefined)) return [];
  const bounded = nodes.some((node) => node?.pattern !== undefined || node?.format !== undefined || node?.maxLength !== undefined);
  if (!bounded) return [];
  const maxLengths = nodes.map((node) => node?.maxLength).filter((n): n is number => typeof n === 'number');
  const maxLength = maxLengths.length > 0 ? Math.min(...maxLengths) : undefined;
  // An id field's value must have its shape's length too (its format checks the prefix and alphabet).
  const shaped = idOfFormat(element);
  const base = (value: unknown) =>
    typeof value === 'string' && fieldAccepts(element, value) && (shaped === undefined || [...value].length === [...shaped].length)
      ? value
      : (shaped ?? (typeof value === 'string' ? value : undefined));
  const start = base(valid);
  if (start === undefined) return [];
  return NORMALISATIONS.filter(({ make, normalised }) => {
    const value = make(start, maxLength);
    return value !== undefined && value !== start && !fieldAccepts(element, value) && fieldAccepts(element, normalised(value));
  }).map(({ key, says, make }) =>
    made(
      'near-value',
      `normalised-${key}`,
      says,
      // Where this value's own near miss cannot be made, the one judged above: never the valid start itself.
      (v) => make(base(v) ?? start, maxLength) ?? make(start, maxLength)!,
      {
        changesIdentity: true,
        extended: true,
        aloneOnly: true,
      },
    ),
  );
}

/** A whole number with its thousands grouped by "." (3600 as "3.600"), as a de-DE culture writes it. */
function groupedThousands(value: number): string {
  return String(value).replace(/\B(?=(\d{3})+(?!\d))/g, '.');
}

const CONVERSIONS = [
  { unit: 'milliseconds', scale: 1_000n },
  { unit: 'microseconds', scale: 1_000_000n },
  { unit: 'nanoseconds', scale: 1_000_000_000n },
] as const;

/**
 * For each integer width (32, 64 bits) and finer unit, the smallest whole number above the range
 * whose product with the unit's scale, wrapped to that width, falls inside the range (as scaled):
 * a server that converts before it checks the range takes it for a value inside. Only numbers
 * JSON carries exactly (up to 2^53).
 */
function wrapsAfterConversion(lowest: number, highest: number): Array<{ key: string; says: string; value: number }> {
  if (!Number.isSafeInteger(lowest) || !Number.isSafeInteger(highest)) return [];
  const twins: Array<{ key: string; says: string; value: number }> = [];
  for (const bits of [32n, 64n])
    for (const { unit, scale } of CONVERSIONS) {
      const modulus = 2n ** bits;
      for (let k = 1n; k <= 4n; k += 1n) {
        const from = k * modulus + BigInt(lowest) * scale;
        const value = (from + scale - 1n) / scale;
        if (value * scale > k * modulus + BigInt(highest) * scale || value <= BigInt(highest)) continue;
        if (value <= BigInt(Number.MAX_SAFE_INTEGER))
          twins.push({ key: `wraps-${bits}-bit-in-${unit}`, says: `in ${unit} in a ${bits}-bit integer`, value: Number(value) });
        break;
      }
    }
  return twins;
}

/**
 * A scalar field's valid value in each wrapper of the shared list (wrappers.ts) the field has no
 * row of yet: another type, which the field refuses, though a reader that unwraps it (a list of
 * one, an object's values, Avro's, MongoDB's or DynamoDB's JSON, Jackson's typed array, an XML
 * text node) takes it for the value. Kept where the field refuses the value made. Against test doubles.
 */
function wrappedValues(made: MakeVariant, element: Element, valid: unknown, present: readonly Made[]): Made[] {
  return wrappersFor(
    present.map((variant) => variant.key),
    valid,
  )
    .filter((entry) => !fieldAccepts(element, entry.wrap(valid)))
    .map((entry) =>
      made(entry.operator, entry.key, entry.says(valid), (v) => entry.wrap(entry.wraps(v) ? v : valid), {
        extended: true,
        aloneOnly: true,
      }),
    );
}

/** The body's key of a text equivalent: its "compatibility-" alias where it had one before the shared list, else "equivalent-<key>". */
function bodyKeyOf(entry: TextEquivalent): string {
  return entry.aliases.find((alias) => alias.startsWith('compatibility-')) ?? `equivalent-${entry.key}`;
}

/**
 * A string whose characters are held to a list, a pattern or a format (an enum value, an id), or a
 * list of such strings (its first item), written another way by each entry of the shared text
 * equivalents (equivalents.ts: a compatibility character NFKC maps back, a case mapping past
 * ASCII, an invisible or trimmed character, a Cyrillic look-alike, a lossy encoding's twin):
 * another string, which the field refuses, though a server that folds the body's strings before
 * its checks takes it for the valid one. Kept where the field refuses the value made. Against test doubles.
 */
function compatibilityForms(made: MakeVariant, element: Element, valid: unknown): Made[] {
  const nodes = schemaNodes(element).filter((node): node is JsonObject => node !== undefined);
  const inList = Array.isArray(valid) && typeof valid[0] === 'string';
  const restricted = inList
    ? nodes.some((node) => restrictsCharacters(node.items as JsonObject | undefined))
    : typeof valid === 'string' && nodes.some(restrictsCharacters);
  if (!restricted) return [];
  const textOf = (value: unknown): string | undefined =>
    inList ? (Array.isArray(value) && typeof value[0] === 'string' ? value[0] : undefined) : typeof value === 'string' ? value : undefined;
  const withText = (value: unknown, text: string): unknown => (inList ? [text, ...(value as unknown[]).slice(1)] : text);
  const start = textOf(valid)!;
  // Past an id's prefix, not past a URL's scheme: a URL field's format is what refuses it.
  const at = (text: string) => (/^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? 0 : variedFrom(text));
  const from = at(start);
  return TEXT_EQUIVALENTS.filter((entry) => {
    const text = entry.make(start, from);
    return text !== undefined && text !== start && entry.fold(text) === entry.fold(start) && !fieldAccepts(element, withText(valid, text));
  }).map((entry) =>
    made(
      'near-value',
      bodyKeyOf(entry),
      inList ? `with ${entry.says.replace(/^its/, "its first item's")}` : `with ${entry.says}`,
      (v) => {
        const text = textOf(v);
        const varied = text === undefined ? undefined : entry.make(text, at(text));
        return varied !== undefined && varied !== text ? withText(v, varied) : withText(valid, entry.make(start, from)!);
      },
      { changesIdentity: true, extended: true, aloneOnly: true },
    ),
  );
}
