// The method and the path: each other method, each literal segment, each path parameter. A path
// parameter's variations are judged by its schemas: a value the contract refuses (a length) is
// refused, and answered 400 invalid_uri by the real service; one only the observed shape refuses
// (a prefix, the alphabet) is answered 400 invalid_uri and names no resource; a well-formed one
// that names no resource gets what its card says (404 for redelivery's stream and event).
import type { ClauseCheck, OperationCard, RequestTemplate } from '../../cards/card.ts';
import { clause as clauseOf, clauses } from '../../clauses.ts';
import { basePath } from '../../openapi.ts';
import { createAjv } from '../../schemas.ts';
import { accepted, observedError, refused } from '../checks.ts';
import type { Element } from '../elements.ts';
import type { Expectation, Variant } from '../row.ts';
import { asFormTemplate, canonicalContext, paramValue, pathOf, percentEncodedLast, type RequestContext } from '../template.ts';
import type { FixtureName } from '../../cards/fixtures.ts';
import { equivalent, equivalentsFor } from '../equivalents.ts';
import {
  charactersBesideAlphabet,
  alphabetOfId,
  idInOtherCase,
  idOfAnotherKind,
  idOfLength,
  idWithAdjacentTransposed,
  idWithEscapedCharacter,
  idWithLastCharacter,
  idWithLookAlike,
  idWithPrefixSeparatorReplaced,
  idWithPrefixLetterDoubled,
  idWithPrefixInCapitals,
  idWithAnotherKindsPrefix,
  shapeOfId,
  swapCase,
  unknownIdLike,
  withFullwidth,
} from '../values.ts';

type Made = Variant & { expect: Expectation };

// TRACE: a debugging route left mounted (an echo of the request, its Authorization header
// included) answers it on every path. OPTIONS last: a CORS layer in front of the interface may
// answer it on its own (a preflight).
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'TRACE', 'OPTIONS'] as const;
/** Methods whose request carries no content (RFC 9110 9.3.1, 9.3.8). */
const WITHOUT_CONTENT: ReadonlySet<string> = new Set(['GET', 'TRACE']);

export function methodVariants(card: OperationCard, own: string): Made[] {
  return [...otherMethods(card, own), ...overriddenMethods(card, own), ...(own === 'GET' ? headVariants(card) : [])];
}

/**
 * Where method-override layers read the method a request "really" has: the headers of Google's,
 * Microsoft's and IBM's conventions, and the query and body parameters of HTML-form middleware
 * (Express's method-override, Rails' and Laravel's `_method`).
 */
/** Headers in which proxies and rewriting front ends pass on the URL they were asked for. */
const REWRITE_URL_HEADERS = [
  'X-Original-URL',
  'X-Rewrite-URL',
  'X-Original-URI',
  'X-Forwarded-Uri',
  'X-Envoy-Original-Path',
  'X-Forwarded-Path',
];

const OVERRIDE_CHANNELS: ReadonlyArray<{ key: string; says: string; header?: string; query?: string }> = [
  { key: 'override', says: 'X-HTTP-Method-Override', header: 'x-http-method-override' },
  { key: 'override-x-http-method', says: 'X-HTTP-Method', header: 'x-http-method' },
  { key: 'override-x-method-override', says: 'X-Method-Override', header: 'x-method-override' },
  { key: 'override-query-_method', says: 'the query parameter _method', query: '_method' },
  { key: 'override-query-method', says: 'the query parameter method', query: 'method' },
];

/**
 * Another method that names the operation's own through a method-override channel (a header, or
 * a query parameter): still another method (a server that honours it serves the operation to a
 * method the spec does not give it, past whatever guards that method). Each channel's row is
 * extended; the sent method is the first other one.
 */
function overriddenMethods(card: OperationCard, own: string): Made[] {
  const other = METHODS.find((method) => method !== own)!;
  return OVERRIDE_CHANNELS.map((channel) => ({
    operator: 'method',
    key: `${other}-${channel.key}`,
    says: `${other}, with ${channel.says}: ${own}`,
    extended: true,
    apply: (template: RequestTemplate) => {
      const { body, ...rest } = template;
      const headers = channel.header === undefined ? rest.headers : { ...rest.headers, [channel.header]: [own] };
      const query: RequestTemplate['query'] = channel.query === undefined ? rest.query : [...rest.query, [channel.query, own]];
      return other === 'GET' || body === undefined
        ? { ...rest, method: other, query, headers: withoutContentType(headers) }
        : { ...template, method: other, query, headers };
    },
    expect: {
      checks: [{ clause: 'routes.method', outcome: refused }],
      source: `observed (inferred): ${card.name} is ${own} only, whatever a header or a parameter asks for`,
    },
  }));
}

/**
 * HEAD is GET without the body (RFC 9110 9.3.2): whether the service serves it is not known, but a
 * HEAD without a credential, or with the token of a client without the operation's scope, is
 * refused like the GET (spec 5, rules 1 and 2), whatever answers it: a security rule matched on GET
 * alone, beside a router that serves HEAD by running the GET, lets it through.
 */
function headVariants(card: OperationCard): Made[] {
  const head = (template: RequestTemplate): RequestTemplate => ({ ...template, method: 'HEAD' });
  return [
    {
      operator: 'method',
      key: 'HEAD',
      says: 'HEAD',
      apply: head,
      expect: { none: 'HEAD is GET without its body (RFC 9110 9.3.2); whether the service serves it is not known' },
      extended: true,
    },
    {
      operator: 'method',
      key: 'HEAD-without-credential',
      says: 'HEAD, with no Authorization header',
      apply: (template) => ({ ...head(template), credential: { kind: 'none' } }),
      expect: {
        checks: [{ clause: 'auth.bearer.required', outcome: refused }],
        source: 'spec 5 rule 1: every request carries a bearer token',
      },
    },
    {
      operator: 'method',
      key: 'HEAD-without-scope',
      says: `HEAD, with the token of a client without ${card.scope.value}`,
      apply: (template) => ({ ...head(template), credential: { kind: 'role', role: card.roleWithoutScope } }),
      needs: [{ role: card.roleWithoutScope }],
      expect: {
        checks: [{ clause: card.scope.clause, outcome: refused }],
        source: `the operation needs ${card.scope.value} (${card.scope.level}), whatever the method that reaches it`,
      },
      extended: true,
    },
  ];
}

function otherMethods(card: OperationCard, own: string): Made[] {
  return METHODS.filter((method) => method !== own).map((method, index) => ({
    operator: 'method',
    key: method,
    says: method,
    // The first other method runs everywhere; the rest against test doubles (or --matrix full).
    ...(index > 0 ? { extended: true } : {}),
    apply: (template: RequestTemplate) => {
      const { body, ...rest } = template;
      return WITHOUT_CONTENT.has(method) || body === undefined
        ? { ...rest, method, headers: withoutContentType(rest.headers) }
        : { ...template, method };
    },
    expect: {
      checks: [{ clause: 'routes.method', outcome: refused }],
      source: `observed (inferred): ${card.name} is ${own} only; another method on its path is not ${card.name}`,
    },
  }));
}

function withoutContentType(headers: RequestTemplate['headers']): RequestTemplate['headers'] {
  const { 'content-type': _gone, ...rest } = headers;
  return rest;
}

/** Names a version router may take for the current version: a dashboard's, an SDK's or a gateway's channel. */
const VERSION_ALIASES = ['latest', 'current', 'stable'] as const;

/** The path with segment `index` replaced by `text` (sent as it is where `encoded`), or left out. */
function withSegment(index: number, text: string | undefined, encoded = false): (template: RequestTemplate) => RequestTemplate {
  const literal = text === undefined ? undefined : { literal: text, ...(encoded ? { encoded: true as const } : {}) };
  return (template) => ({
    ...template,
    path:
      literal === undefined ? template.path.filter((_, i) => i !== index) : template.path.map((part, i) => (i === index ? literal : part)),
  });
}

/**
 * A literal segment's variations: none has an expectation, since the spec says nothing of other paths.
 * Long: one entry per variation, the version segment's spellings among them, read top to bottom as `--list` prints them.
 */
export function literalVariants(element: Element): Made[] {
  const { index, text } = element.segment!;
  const none = { none: 'the spec gives the path, and says nothing of how the service answers another path' };
  // The version segment of the base path: another version is not this interface (spec 9), whatever a
  // router that takes any version (/api/v:version) makes of it.
  const version = /^v(\d+)$/.exec(text);
  // A segment of the base path (spec 9): the operations are served under /api/v2 and nowhere else.
  const basePathDepth = basePath.split('/').length - 1;
  const ofBasePath = index < basePathDepth;
  return [
    ...(version
      ? [
          {
            operator: 'near-value' as const,
            key: 'next-version',
            says: `as v${Number(version[1]) + 1}`,
            apply: withSegment(index, `v${Number(version[1]) + 1}`),
            expect: {
              checks: [{ clause: 'versioning.base-path', outcome: refused }],
              source: 'spec 9: the interface is version 2, its base path /api/v2',
            },
          },
        ]
      : []),
    // The version segment as a name a version router may alias to the current version ("latest",
    // "current", "stable": a dashboard's or a gateway's channel) or as the version before it (a
    // compatibility shim forwarding v1 to v2): another path than the base path, not this interface.
    ...(version
      ? [
          ...VERSION_ALIASES.map((alias) => ({ key: `version-alias-${alias}`, spelling: alias })),
          ...(Number(version[1]) > 1 ? [{ key: 'previous-version', spelling: `v${Number(version[1]) - 1}` }] : []),
        ].map(({ key, spelling }) => ({
          operator: 'near-value' as const,
          key,
          says: `as ${spelling}`,
          apply: withSegment(index, spelling),
          expect: {
            checks: [{ clause: 'versioning.base-path', outcome: refused }],
            source: `spec 9: the interface is version ${version[1]}, its base path ${basePath}; ${spelling} is another segment than its version`,
          },
          extended: true,
        }))
      : []),
    // The version spelled otherwise but numerically the same (v2.0, v02): another path than the
    // base path (RFC 3986 6.2.2.1), though a router that compares the version as a number serves it.
    ...(version
      ? [`v${version[1]}.0`, `v0${version[1]}`].map((spelling) => ({
          operator: 'near-value' as const,
          key: `version-${spelling}`,
          says: `as ${spelling}`,
          apply: withSegment(index, spelling),
          expect: {
            checks: [{ clause: 'versioning.base-path', outcome: refused }],
            source: `spec 9: the base path is ${basePath}; ${spelling} is another segment, whatever number it spells`,
          },
          extended: true,
        }))
      : []),
    {
      operator: 'case',
      key: 'case',
      says: 'in capitals',
      apply: withSegment(index, swapCase(text)),
      expect: ofBasePath
        ? {
            checks: [{ clause: 'versioning.base-path', outcome: refused }],
            source: "spec 9: the base path is /api/v2; a URI's path is compared case-sensitively (RFC 3986 6.2.2.1)",
          }
        : index === basePathDepth
          ? {
              none: `${none.none}; where its answer is an error, the error body's tests read it (errors.body.shape, errors.body.content-type)`,
            }
          : none,
      extended: true,
    },
    {
      operator: 'absent',
      key: 'absent',
      says: 'left out',
      apply: withSegment(index, undefined),
      expect: ofBasePath
        ? {
            checks: [{ clause: 'versioning.base-path', outcome: refused }],
            source: 'spec 9: the version is part of the base path /api/v2; a path without it is not the interface',
          }
        : none,
      extended: true,
    },
    {
      // An empty segment before it (RFC 3986 3.3: "/api//v2" is another path than "/api/v2"); a
      // front end that merges repeated slashes serves it all the same. Test doubles only: whether
      // the real service's front end merges them is not known.
      operator: 'duplicate',
      key: 'slash-doubled',
      says: 'after a doubled slash (an empty segment before it)',
      apply: (template: RequestTemplate) => ({
        ...template,
        path: [...template.path.slice(0, index), { literal: '' }, ...template.path.slice(index)],
      }),
      expect: ofBasePath
        ? {
            checks: [{ clause: 'versioning.base-path', outcome: refused }],
            source: 'spec 9: the base path is /api/v2; a path with an empty segment in it is another (RFC 3986 3.3)',
          }
        : none,
      extended: true,
    },
    // The slash before a segment of the base path written %5C, a backslash: another path (one
    // segment where there were two), though a router that decodes the target and parses it as a
    // WHATWG URL reads "\" as "/". Test doubles only: what the real front end does is not known.
    ...(ofBasePath && index > 0
      ? [
          {
            operator: 'encoding' as const,
            key: 'backslash-before',
            says: 'after a backslash (%5C) in place of the slash before it',
            apply: (template: RequestTemplate) => {
              const before = template.path[index - 1];
              const joined = `${before !== undefined && 'literal' in before ? before.literal : ''}%5C${text}`;
              return {
                ...template,
                path: [
                  ...template.path.slice(0, index - 1),
                  { literal: joined, encoded: true as const },
                  ...template.path.slice(index + 1),
                ],
              };
            },
            expect: {
              checks: [{ clause: 'versioning.base-path', outcome: refused }],
              source: `spec 9: the base path is ${basePath}; "%5C" is a character of a segment, not a slash (RFC 3986 3.3)`,
            },
            extended: true,
          },
        ]
      : []),
    {
      operator: 'encoding',
      key: 'escaped',
      says: 'with its first character percent-escaped',
      apply: withSegment(index, `%${text.charCodeAt(0).toString(16).toUpperCase()}${text.slice(1)}`, true),
      expect: none,
      extended: true,
    },
  ];
}

const ajv = { contract: createAjv({ level: 'contract' }), observed: createAjv({ level: 'observed' }) };

/** The clause of a path parameter's length limit, where the registry has one. */
/** The clause that bounds a path parameter's length, if one does. */
function lengthClauseOf(card: OperationCard, name: string) {
  return clauses.find((c) => c.limit?.location.operation === card.key && c.limit.location.in === 'path' && c.limit.location.name === name);
}

function lengthClause(card: OperationCard, name: string): string | undefined {
  return lengthClauseOf(card, name)?.id;
}

/** What a value of a path parameter gets, by its schemas (see the file's head). */
export function paramExpectation(card: OperationCard, element: Element, value: string, otherOwner: boolean): Expectation {
  const name = element.name!;
  const rule = card.params[name]!;
  const valid = (level: 'contract' | 'observed') => ajv[level].validate(element.schemas![level]!, value);
  const malformed: ClauseCheck = { clause: 'errors.400.path', outcome: observedError('invalid_uri', name) };
  if (!valid('contract')) {
    return {
      checks: [{ clause: lengthClause(card, name) ?? rule.unknown[0]!.clause, outcome: refused }, malformed],
      source: 'the spec bounds it; the real service answers a malformed path id 400 invalid_uri',
    };
  }
  if (!valid('observed')) {
    return {
      checks: [{ clause: rule.unknown[0]!.clause, outcome: refused }, malformed],
      source: `it names no ${rule.names}; the real service checks the id's shape (prefix and alphabet)`,
    };
  }
  if (otherOwner && rule.otherOwner) return { checks: rule.otherOwner.checks, source: `it names ${rule.otherOwner.what}` };
  return { checks: rule.unknown, source: `a well-formed id that names no ${rule.names}` };
}

/** Hexadecimal digits made from a text, as many as asked: the same text, the same digits. */
function hexDigitsOf(text: string, count: number): string {
  let digits = '';
  for (let i = 0; digits.length < count; i += 1)
    digits += ((text.charCodeAt(i % text.length) * 31 + i * 7) % 256).toString(16).padStart(2, '0');
  return digits.slice(0, count);
}

/** Other systems' forms of an id, made from this one's characters (see paramVariants). */
const FOREIGN_ID_FORMS: ReadonlyArray<{ key: string; says: string; form: (id: string) => string }> = [
  { key: 'object-id', says: 'a MongoDB ObjectId (24 hexadecimal digits)', form: (id) => hexDigitsOf(id, 24) },
  {
    key: 'uuid',
    says: 'a UUID (36 characters, with its dashes)',
    form: (id) => hexDigitsOf(id, 32).replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, '$1-$2-$3-$4-$5'),
  },
  { key: 'uuid-compact', says: 'a UUID without its dashes (32 hexadecimal digits)', form: (id) => hexDigitsOf(id, 32) },
  {
    key: 'snowflake',
    says: 'a snowflake id (19 decimal digits)',
    form: (id) => `1${hexDigitsOf(id, 18).replace(/[a-f]/g, (d) => String(d.charCodeAt(0) - 97))}`,
  },
  {
    key: 'ksuid',
    says: 'a KSUID (27 characters of base62)',
    form: (id) => (id.replace(/[^0-9A-Za-z]/g, '') + hexDigitsOf(id, 27)).slice(0, 27),
  },
];

/** The length of an id's prefix (0 for an id of no prefixed shape). */
function shapeOfIdPrefixLength(id: string): number {
  return shapeOfId(id)?.prefix.length ?? 0;
}

/** The id with the last `from` of its random part written `to`; the id with its last character `to` where it has none. */
function withLastReplaced(id: string, from: string, to: string): string {
  const at = id.lastIndexOf(from);
  return at >= shapeOfIdPrefixLength(id) ? `${id.slice(0, at)}${to}${id.slice(at + 1)}` : `${id.slice(0, -1)}${to}`;
}

/** The value of a path parameter in a template. */
function paramOf(template: RequestTemplate, name: string): string | undefined {
  const part = template.path.find((p) => 'param' in p && p.param === name);
  return part && 'param' in part ? part.value : undefined;
}

/** The fixtures naming a resource's name, by the fixture of its id. */
const NAME_FIXTURES: Partial<Record<FixtureName, { fixture: FixtureName; field: string }>> = {
  eventStream: { fixture: 'eventStreamName', field: 'event_stream_name' },
  selfServiceProfile: { fixture: 'selfServiceProfileName', field: 'self_service_profile_name' },
};

/** How to find the name of the resource an id names on a target, for the fixture of its ids; undefined where none is named. */
function resourceNameOf(fixture: FixtureName): ((context: RequestContext, id: string) => string | undefined) | undefined {
  const named = NAME_FIXTURES[fixture];
  if (!named) return undefined;
  return (context) => (context.fixtures[named.fixture] as string | undefined) || undefined;
}

/** The sort-key prefix a single-table design stores a kind of record under: "EVENT#". */
const storageKeyPrefix = (names: string): string => `${names.split(' ').pop()!.toUpperCase()}#`;

/** The wildcards of the patterns a lookup may take an id for, each one character: any one character, or any run. */
/** Members every JavaScript object inherits from Object.prototype, which a plain object's lookup finds. */
const PROTOTYPE_MEMBERS = ['constructor', '__proto__', 'toString', 'hasOwnProperty'] as const;

const PATTERN_WILDCARDS: ReadonlyArray<{ key: string; says: string; wildcard: string }> = [
  { key: 'regex-wildcard', says: 'any character, to a regular expression', wildcard: '.' },
  { key: 'glob-star', says: "any run of characters, to a glob (Redis's MATCH, fnmatch)", wildcard: '*' },
  { key: 'glob-question-mark', says: 'any character, to a glob', wildcard: '?' },
  { key: 'like-underscore', says: "any character, to SQL's LIKE", wildcard: '_' },
  { key: 'like-percent', says: "any run of characters, to SQL's LIKE", wildcard: '%' },
];

/**
 * The variations of a path parameter, each made from the target's valid value and judged by the value it makes.
 * Long: the path operators of the catalogue, one entry each, read top to bottom as `--list` prints them.
 */
export function paramVariants(card: OperationCard, element: Element): Made[] {
  const name = element.name!;
  const rule = card.params[name]!;
  const made = (
    operator: Made['operator'],
    key: string,
    says: string,
    change: (value: string, context: RequestContext) => string,
    extra: Partial<Made> = {},
  ): Made => {
    const apply = (template: RequestTemplate, context: RequestContext): RequestTemplate => ({
      ...template,
      path: template.path.map((part) =>
        'param' in part && part.param === name ? { param: name, value: change(part.value, context) } : part,
      ),
    });
    const judge = (varied: RequestTemplate, _context: RequestContext) =>
      paramExpectation(card, element, paramOf(varied, name) ?? '', operator === 'other-owner');
    return {
      operator,
      key,
      says,
      apply,
      judge,
      expect: judge(apply(templateWith(name, paramValue(card, name, canonicalContext)), canonicalContext), canonicalContext),
      ...extra,
    };
  };
  const contract = element.schemas!.contract!;
  const bounds = [contract.minLength, contract.maxLength].filter((b): b is number => typeof b === 'number');
  const lengths = [...new Set(bounds.flatMap((b) => [b - 1, b, b + 1]))].filter((n) => n >= 1).sort((a, b) => a - b);
  const variants: Made[] = lengths.map((length) =>
    made('bounds', String(length), `of ${length} characters`, (value) => idOfLength(value, length)),
  );
  // Variations whose value comes from the target's fixtures (or is the same id, encoded): never
  // dropped as landing on another variation's value in the canonical context.
  const fixtureBound = new WeakSet<Made>();
  const bound = (variant: Made): Made => (fixtureBound.add(variant), variant);
  const maximum = contract.maxLength;
  const listed = canonicalContext.fixtures[rule.fixture];
  if (typeof maximum === 'number' && Array.isArray(listed)) {
    // An existing id at the maximum is accepted: the target file must name one (the mock does).
    const atMaximum = (context: RequestContext) =>
      (context.fixtures[rule.fixture] as string[] | undefined)?.find((id) => id.length === maximum);
    variants.push(
      bound({
        operator: 'bounds',
        key: 'existing-at-maximum',
        says: `of ${maximum} characters, naming an existing ${rule.names}`,
        apply: (template, context) => ({
          ...template,
          path: template.path.map((part) =>
            'param' in part && part.param === name ? { param: name, value: atMaximum(context) ?? part.value } : part,
          ),
        }),
        needs: [
          {
            context: (context) =>
              atMaximum(context) === undefined
                ? `needs a ${rule.names} whose id has the maximum length (${maximum}) among the target file's fixtures`
                : undefined,
          },
        ],
        expect: {
          checks: [{ clause: lengthClause(card, name)!, outcome: accepted }],
          source: `the spec allows up to ${maximum} characters`,
        },
      }),
    );
    // The existing id at the maximum with one character added: a server that cuts ids to the maximum finds it.
    variants.push(
      bound({
        operator: 'bounds',
        key: 'existing-at-maximum-plus-one',
        says: `of ${maximum + 1} characters, an existing ${rule.names}'s id with one character added`,
        apply: (template, context) => ({
          ...template,
          path: template.path.map((part) =>
            'param' in part && part.param === name
              ? { param: name, value: idOfLength(atMaximum(context) ?? part.value, maximum + 1) }
              : part,
          ),
        }),
        needs: variants[variants.length - 1]!.needs!,
        expect: paramExpectation(card, element, idOfLength(paramValue(card, name, canonicalContext), maximum + 1), false),
      }),
    );
    // The same with an invisible character added (a zero-width space): one over the maximum too,
    // though a server that deletes such characters before the check finds the existing one.
    variants.push(
      bound({
        ...variants[variants.length - 1]!,
        key: 'existing-at-maximum-plus-invisible',
        says: `of ${maximum + 1} characters, an existing ${rule.names}'s id with a zero-width space (U+200B) added`,
        apply: (template, context) => ({
          ...template,
          path: template.path.map((part) =>
            'param' in part && part.param === name ? { param: name, value: `${atMaximum(context) ?? part.value}\u200B` } : part,
          ),
        }),
      }),
    );
  }
  if (typeof maximum === 'number' && Array.isArray(listed)) {
    // The existing id at the maximum followed by an encoded URL delimiter and a character ("#x",
    // "?x" sent as %23x, %3Fx): two over the maximum, though a server that parses the decoded id
    // as a URL again cuts it at the delimiter and finds the existing one.
    const atMaximumRow = variants.find((variant) => variant.key === 'existing-at-maximum-plus-one')!;
    for (const [key, delimiter, extended] of [
      ['encoded-hash', '#', false],
      ['encoded-question-mark', '?', true],
    ] as const) {
      const atMaximum = (context: RequestContext) =>
        (context.fixtures[rule.fixture] as string[] | undefined)?.find((id) => id.length === maximum);
      variants.push(
        bound({
          ...atMaximumRow,
          key: `existing-at-maximum-plus-${key}`,
          says: `of ${maximum + 2} characters, an existing ${rule.names}'s id followed by "${delimiter}x" (encoded)`,
          apply: (template, context) => ({
            ...template,
            path: template.path.map((part) =>
              'param' in part && part.param === name ? { param: name, value: `${atMaximum(context) ?? part.value}${delimiter}x` } : part,
            ),
          }),
          expect: paramExpectation(card, element, `${idOfLength(paramValue(card, name, canonicalContext), maximum)}${delimiter}x`, false),
          ...(extended ? { extended: true } : {}),
        }),
      );
    }
  }
  if (typeof maximum === 'number' && Array.isArray(listed)) {
    // The longest existing id without its last character: a server that finds ids by prefix (a
    // search's LIKE 'id%' reused) answers it with that longer resource instead of 404. Where no
    // fixture is longer than the valid request's, an id at the maximum stands in (then it is only an
    // unknown well-formed id), so that the row's expectation is the same on every target.
    const longer = (value: string, context: RequestContext) =>
      [...((context.fixtures[rule.fixture] as string[] | undefined) ?? [])]
        .filter((id) => id.length > value.length)
        .sort((x, y) => y.length - x.length)[0] ?? idOfLength(value, maximum);
    variants.push(
      bound(
        made(
          'truncate',
          'prefix-of-longest',
          `as the longest ${rule.names} id of the fixtures without its last character`,
          (value, context) => longer(value, context).slice(0, -1),
        ),
      ),
    );
  }
  variants.push(
    made('case', 'case', 'with one letter in the other case', (value) => idInOtherCase(value) ?? swapCase(value)),
    made('whitespace', 'leading-space', 'with a space before it', (value) => ` ${value}`),
    made('whitespace', 'trailing-tab', 'with a tab after it', (value) => `${value}\t`, { extended: true }),
    // The key its kind is stored under in a single-table design ("EVENT#<id>"): another id, though a
    // handler that adds the prefix only where the id lacks it finds the record.
    made(
      'extra-part',
      'storage-key-prefixed',
      `with its kind's storage key prefix before it (${storageKeyPrefix(rule.names)})`,
      (value) => `${storageKeyPrefix(rule.names)}${value}`,
      { extended: true },
    ),
    // Spaces after it: another id, though a collation that pads with spaces (MySQL's PAD SPACE, SQL
    // Server's comparison of char columns) compares it equal to the id.
    made('whitespace', 'trailing-space', 'with a space after it', (value) => `${value} `, { extended: true }),
    made('whitespace', 'trailing-spaces', 'with three spaces after it', (value) => `${value}   `, { extended: true }),
    made('encoding', 'escaped', 'with one character escaped once more', idWithEscapedCharacter),
    made('truncate', 'truncate', 'without its last character', (value) => value.slice(0, -1)),
    made('extra-part', 'extra-character', 'with one character of its alphabet added', (value) => idOfLength(value, value.length + 1)),
    made('near-value', 'unknown', 'well formed, naming no resource', unknownIdLike),
    // Two adjacent characters swapped: the same characters, another id that names nothing (an
    // index keyed by a checksum of the id, or a typo-forgiving lookup, finds the existing one).
    made(
      'near-value',
      'adjacent-transposed',
      'with two adjacent distinct characters swapped (well formed, naming no resource)',
      (value) => idWithAdjacentTransposed(value) ?? unknownIdLike(value),
      { extended: true },
    ),
    made('extra-part', 'control-character', 'with a NUL character after it', (value) => `${value}\u0000`),
    // A line feed after it: a pattern whose $ also matches before a final line feed (Python's,
    // PCRE's without D) takes the id for well formed, and a lookup that trims finds it.
    made('extra-part', 'line-feed', 'with a line feed after it', (value) => `${value}\n`),
    // Invisible characters, which a helper for pasted text deletes: another id all the same.
    made('extra-part', 'zero-width-space', 'with a zero-width space (U+200B) after it', (value) => `${value}\u200B`),
    made('extra-part', 'leading-bom', 'with a byte order mark (U+FEFF) before it', (value) => `\uFEFF${value}`, { extended: true }),
    // A character replaced by its look-alike (o and 0, l and 1): a helper that "fixes" typos reads it as the id.
    made('near-value', 'look-alike', 'with one character replaced by its look-alike (o by 0, l by 1)', idWithLookAlike),
    made('extra-part', 'encoded-slash', 'with an encoded slash and a segment after it', (value) => `${value}/x`),
    // A segment and an encoded slash before it, a resource name in the Google API style
    // ("connections/<id>"): a lookup of its last segment (path.basename) finds the id.
    made(
      'extra-part',
      'encoded-slash-before',
      'with a segment and an encoded slash before it (a resource name: "items/<id>")',
      (value) => `items/${value}`,
      { extended: true },
    ),
    // The id as a JSON string, in double quotes: a router that runs parameters described with
    // content: application/json through JSON.parse (and SDKs that serialise every parameter as
    // JSON) reads it as the id; it is another, malformed, id.
    made('extra-part', 'json-quoted', 'in double quotes, as a JSON string', (value) => `"${value}"`, { extended: true }),
    // The names every JavaScript object inherits (constructor, __proto__, toString, hasOwnProperty):
    // ids that name nothing, though a lookup in a plain object (records[id]) finds an inherited
    // member and answers with it. Judged by the value, as any id.
    ...PROTOTYPE_MEMBERS.map((member) =>
      made('near-value', `prototype-member-${member}`, `"${member}", a member every JavaScript object inherits`, () => member, {
        extended: true,
      }),
    ),
    // The id in OData's key syntax, ('<id>'): another, malformed, id, though a route that also takes
    // the key syntax reads the id out of it.
    made('extra-part', 'odata-key', "in OData's key syntax ('<id>')", (value) => `('${value}')`, { extended: true }),
    // Its last letter written as a pattern's wildcard: another id, though a lookup that takes the
    // id for a pattern (a regular expression, a glob such as Redis's SCAN MATCH, SQL's LIKE) finds
    // the resource.
    ...PATTERN_WILDCARDS.map(({ key, says, wildcard }) =>
      made(
        'near-value',
        key,
        `with its last letter written "${wildcard}" (${says})`,
        (value) => value.replace(/[A-Za-z](?=[^A-Za-z]*$)/, wildcard),
        { extended: true },
      ),
    ),
    // Trailing dots, which Windows takes off a file name and a front end hosted there off a
    // path segment: another id, though the lookup behind such a front end finds this one.
    made('extra-part', 'trailing-dot', 'with a dot after it', (value) => `${value}.`, { extended: true }),
    made('extra-part', 'trailing-dots', 'with two dots after it', (value) => `${value}..`, { extended: true }),
    // A format suffix a router strips (/:id.:format): another id.
    made('extra-part', 'format-extension', 'with a file extension after it (.json)', (value) => `${value}.json`),
    // A letter in its full-width form: Unicode normalisation (NFKC) makes it the letter, an exact comparison does not.
    made('encoding', 'full-width-letter', 'with its last letter in its full-width form', fullWidthLast),
    // A Latin letter replaced by its Cyrillic twin (a and а U+0430): another id, though a lookup that
    // compares confusable skeletons (UTS #39, a guard against look-alike names) finds it.
    made(
      'encoding',
      'cyrillic-look-alike',
      'with its last letter that has a Cyrillic twin written as that twin (a as U+0430)',
      cyrillicLast,
    ),
    made('other-owner', 'another-kind', "of another resource's shape", idOfAnotherKind),
  );
  // The prefix's separator ("_" of "evt_") replaced by "-": the random part and the length kept, no
  // id of its shape (a prefix checked as its letters alone takes it for one). Ids of a prefixed shape only.
  if (idWithPrefixSeparatorReplaced(paramValue(card, name, canonicalContext)) !== undefined) {
    variants.push(
      made(
        'near-value',
        'prefix-separator-replaced',
        'with the separator ending its prefix replaced by "-"',
        (value) => idWithPrefixSeparatorReplaced(value) ?? value,
        { extended: true },
      ),
    );
  }
  // The prefix with its last letter written twice, the random part behind another kind's prefix,
  // and the prefix in capitals: no id of its shape, though a prefix removed as a set of characters,
  // cut off by its length whatever it says, or compared without regard to case (CFML's NEQ) leaves
  // the random part to find (ids of a prefixed shape only). Case mappings past ASCII and hash
  // collisions are the shared text equivalents' (below).
  for (const [key, says, change] of [
    ['prefix-letter-doubled', 'with the last letter of its prefix written twice (acc_ for ac_)', idWithPrefixLetterDoubled],
    ['another-kinds-prefix', "with its random part behind another kind's prefix", idWithAnotherKindsPrefix],
    ['prefix-in-capitals', 'with its prefix in capitals, its random part as it is', idWithPrefixInCapitals],
  ] as const) {
    if (change(paramValue(card, name, canonicalContext)) !== undefined)
      variants.push(made('near-value', key, says, (value) => change(value) ?? value, { extended: true }));
  }
  // The random part after its alphabet's zero digit ("1" in base58, "0" elsewhere): one over the
  // length, though a reader that decodes the id into a number (leading zeros add nothing) finds it.
  // And the id wrapped in base64, alone or as a Relay global id ("<Kind>:<id>"): another, malformed
  // id, though a route that also takes global ids decodes it to this one.
  variants.push(
    made('extra-part', 'alphabet-zero-prefixed', "with its alphabet's zero digit before its random part", idWithAlphabetZeroPrefixed, {
      extended: true,
    }),
    made('encoding', 'base64-wrapped', 'written in base64', (value) => Buffer.from(value, 'utf8').toString('base64'), { extended: true }),
    made(
      'encoding',
      'relay-global-id',
      `as a Relay global id (base64 of "${relayKindOf(rule.names)}:<id>")`,
      (value) => Buffer.from(`${relayKindOf(rule.names)}:${value}`, 'utf8').toString('base64'),
      { extended: true },
    ),
  );
  // The id written in the form another system gives its ids (a MongoDB ObjectId, a UUID with and
  // without its dashes, a snowflake, a KSUID), made from this id's characters: ids of another
  // length or alphabet, though a route that still takes an old store's form (a converter kept from
  // a migration) looks it up instead of refusing it.
  for (const { key, says, form } of FOREIGN_ID_FORMS) {
    variants.push(made('near-value', `foreign-id-${key}`, `written as ${says}`, form, { extended: true }));
  }
  // A character and its look-alike each way the id's alphabet allows (l and I for 1, 0 for o, O for
  // 0): another id, though a reader that folds look-alikes (Crockford's base32 decoding) finds it.
  for (const [from, to] of [
    ['1', 'l'],
    ['1', 'I'],
    ['o', '0'],
    ['0', 'O'],
  ] as const) {
    if (
      paramValue(card, name, canonicalContext)
        .slice(shapeOfIdPrefixLength(paramValue(card, name, canonicalContext)))
        .includes(from)
    )
      variants.push(
        made(
          'near-value',
          `look-alike-${to}-for-${from}`,
          `with its last "${from}" written "${to}"`,
          (value) => withLastReplaced(value, from, to),
          {
            extended: true,
          },
        ),
      );
  }
  // The last character replaced by one just outside the id's alphabet, one of each gap of it in
  // code-point order and one beyond each end ("0", ":", "I", "O", "_", "l", "{" for base58): a
  // character class written one range too wide ([1-9A-z], A-Z whole, [0-9]) takes the id for well
  // formed. Test doubles only: each is one more malformed id.
  for (const character of charactersBesideAlphabet(alphabetOfId(paramValue(card, name, canonicalContext)))) {
    const shown = /[A-Za-z0-9]/.test(character) ? character : `U+${character.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
    variants.push(
      made(
        'near-value',
        `outside-alphabet-${shown}`,
        `with its last character replaced by "${character}", just outside its alphabet`,
        (value) => idWithLastCharacter(value, character),
        { extended: true },
      ),
    );
  }
  // The id as a list of two, the same id twice joined by a list delimiter of OpenAPI's styles: ","
  // (simple and form, sent as it is, as RFC 6570 expands a list), "|" (pipeDelimited) and " "
  // (spaceDelimited), both percent-encoded: one id, over its length; a parameter reader that makes a
  // list of it and takes either item finds the resource. Test doubles only.
  for (const [key, delimiter, sent] of [
    ['comma', ',', ','],
    ['pipe', '|', '%7C'],
    ['space', ' ', '%20'],
  ] as const) {
    const listed = (value: string) => `${encodeURIComponent(value)}${sent}${encodeURIComponent(value)}`;
    variants.push(
      bound({
        operator: 'duplicate',
        key: `listed-${key}`,
        says: `twice, joined by "${delimiter}" (a list of two${sent === delimiter ? ', sent as it is' : `, sent ${sent}`})`,
        apply: sentEncoded(name, listed),
        judge: (varied) => paramExpectation(card, element, decodeURIComponent(paramOf(varied, name) ?? ''), false),
        expect: paramExpectation(card, element, decodeURIComponent(listed(paramValue(card, name, canonicalContext))), false),
        extended: true,
      }),
    );
  }
  // The same id with one character percent-encoded (RFC 3986 2.3: an encoded unreserved character is
  // that character): it names the same resource, and the operation is performed.
  variants.push(
    bound({
      operator: 'encoding',
      key: 'percent-encoded',
      says: 'with its last character percent-encoded (the same id)',
      apply: sentEncoded(name, percentEncodedLast),
      expect: {
        checks: [{ clause: card.success.clause, outcome: accepted }],
        source: 'RFC 3986 2.3: a percent-encoded unreserved character is that character',
      },
    }),
  );
  // A character written as an overlong two-byte UTF-8 sequence ("_" as %C1%9F), which is no UTF-8
  // (RFC 3629 3): a malformed path, though a lenient decoder (the IIS "%c1%1c" flaw) reads the id.
  variants.push(
    bound({
      operator: 'encoding',
      key: 'overlong-utf8',
      says: `with its ${paramValue(card, name, canonicalContext).includes('_') ? '"_"' : 'last letter'} written as an overlong two-byte UTF-8 sequence (sent as it is)`,
      apply: sentEncoded(name, withOverlongCharacter),
      expect: paramExpectation(card, element, withOverlongCharacter(paramValue(card, name, canonicalContext)), false),
      extended: true,
    }),
  );
  // The id with its first letter written %uXXXX, the legacy unescape()'s form (no percent-encoding
  // of RFC 3986: "%u0" is not one): a decoder that reads it finds the resource, but the path's text
  // is another id, longer than the valid one.
  variants.push(
    bound({
      operator: 'encoding',
      key: 'percent-u-letter',
      says: 'with its first letter written %uXXXX (sent as it is)',
      apply: sentEncoded(name, percentUFirstLetter),
      expect: paramExpectation(card, element, percentUFirstLetter(paramValue(card, name, canonicalContext)), false),
      extended: true,
    }),
  );
  // Every path id unknown at once: the first (outer) resource is the one missing (observed order of
  // the lookups: the stream before its event), not whichever the server looked up first.
  const names = Object.keys(card.params);
  if (names.length > 1 && names[0] === name) {
    variants.push(
      bound({
        operator: 'near-value',
        key: 'unknown-with-every-later-id',
        says: `well formed, naming no resource, and every later id unknown too`,
        apply: (template) => ({
          ...template,
          path: template.path.map((part) => ('param' in part ? { param: part.param, value: unknownIdLike(part.value) } : part)),
        }),
        expect: paramExpectation(card, element, unknownIdLike(paramValue(card, name, canonicalContext)), false),
      }),
    );
  }
  // The unknown id in the path with the valid one in the query under the parameter's name (and
  // "id"): a server that reads a merged parameter bag in which the query wins finds the valid one.
  // The path names the resource (spec 8); the query names nothing the spec knows.
  const unknownRow = variants.find((variant) => variant.key === 'unknown');
  if (unknownRow) {
    const queryNames = [...new Set([name, 'id'])];
    variants.push(
      bound({
        ...unknownRow,
        key: 'unknown-with-valid-in-query',
        says: `well formed and naming no resource, with the valid id in the query (${queryNames.map((n) => `?${n}=`).join(', ')})`,
        apply: (template, context) => {
          const valid = paramOf(template, name) ?? '';
          const varied = unknownRow.apply(template, context);
          return { ...varied, query: [...varied.query, ...queryNames.map((n): [string, string] => [n, valid])] };
        },
      }),
    );
  }
  // The unknown id in the path with the valid request's path in the headers some frameworks read the
  // URL from behind a rewriting proxy (IIS's X-Original-URL and X-Rewrite-URL, NGINX's X-Original-URI
  // of auth_request, Traefik's X-Forwarded-Uri, Envoy's X-Envoy-Original-Path, X-Forwarded-Path): a
  // server that trusts them from any caller (Symfony's getPathInfo() before 4.1) serves the resource
  // they name. The request line names the resource (RFC 9112 3.2, spec 8); those headers name
  // nothing the spec knows. One request carrying them all.
  if (unknownRow) {
    variants.push(
      bound({
        ...unknownRow,
        key: 'unknown-with-valid-url-in-headers',
        says: `well formed and naming no resource, with the valid path in ${REWRITE_URL_HEADERS.join(', ')}`,
        apply: (template, context) => {
          const path = pathOf(template);
          const varied = unknownRow.apply(template, context);
          return {
            ...varied,
            headers: { ...varied.headers, ...Object.fromEntries(REWRITE_URL_HEADERS.map((name) => [name.toLowerCase(), [path]])) },
          };
        },
        extended: true,
      }),
    );
  }
  // The same in a JSON body, on an operation that takes none (a POST): a handler that reads
  // `body.event_id ?? params.event_id`, or a framework that merges the body over the route's
  // parameters, finds the valid one. The request names no resource whatever is done with the body
  // (refused for it, or read without it): it is refused.
  if (unknownRow && card.body === undefined && card.spec.method === 'POST' && 'checks' in unknownRow.expect) {
    const bodyNames = [...new Set([name, 'id'])];
    const [first] = unknownRow.expect.checks;
    variants.push(
      bound({
        operator: unknownRow.operator,
        key: 'unknown-with-valid-in-body',
        says: `well formed and naming no resource, with the valid id in a JSON body (${bodyNames.map((n) => `"${n}"`).join(', ')})`,
        apply: (template, context) => {
          const valid = paramOf(template, name) ?? '';
          const varied = unknownRow.apply(template, context);
          return {
            ...varied,
            headers: { ...varied.headers, 'content-type': ['application/json'] },
            body: { json: Object.fromEntries(bodyNames.map((n) => [n, valid])) },
          };
        },
        expect: {
          checks: [{ clause: first!.clause, outcome: refused }],
          source: `${unknownRow.expect.source}; the operation takes no body (spec 4), so one names no resource`,
        },
        extended: true,
      }),
    );
  }
  // The same two ways with headers named like the parameter (and "id"), as a gateway that maps
  // headers onto path parameters or a validator built from every parameter whatever its `in` would
  // read them: the unknown id with the valid one in those headers is still unknown, and the valid
  // request with a malformed id in them is still the valid request. A recipient ignores a header
  // field it does not recognise (RFC 9110 5.1); the operation has no header of that name.
  const headerNames = [...new Set([name, 'id'])];
  const inHeaders = (template: RequestTemplate, value: string): RequestTemplate => ({
    ...template,
    headers: { ...template.headers, ...Object.fromEntries(headerNames.map((n) => [n, [value]])) },
  });
  if (unknownRow) {
    variants.push(
      bound({
        ...unknownRow,
        key: 'unknown-with-valid-in-header',
        says: `well formed and naming no resource, with the valid id in headers named ${headerNames.join(' and ')}`,
        apply: (template, context) => inHeaders(unknownRow.apply(template, context), paramOf(template, name) ?? ''),
        extended: true,
      }),
    );
  }
  variants.push(
    bound({
      operator: 'extra-part',
      key: 'valid-with-malformed-in-header',
      says: `the valid id, with an id of another resource's shape in headers named ${headerNames.join(' and ')}`,
      apply: (template) => inHeaders(template, idOfAnotherKind(paramOf(template, name) ?? '')),
      expect: {
        checks: [{ clause: card.success.clause, outcome: accepted }],
        source:
          'spec 8: the path names the resource; the operation has no header of that name, and a recipient ignores a header field it does not recognise (RFC 9110 5.1): the valid request',
      },
      extended: true,
    }),
  );
  if (typeof maximum === 'number' && Array.isArray(listed)) {
    const overLong = variants.find((variant) => variant.key === 'existing-at-maximum-plus-one')!;
    const queryNames = [...new Set([name, 'id'])];
    variants.push(
      bound({
        ...overLong,
        key: 'existing-at-maximum-plus-one-with-valid-in-query',
        says: `${overLong.says}, with the existing id in the query (${queryNames.map((n) => `?${n}=`).join(', ')})`,
        apply: (template, context) => {
          const existing = (context.fixtures[rule.fixture] as string[] | undefined)?.find((id) => id.length === maximum);
          const varied = overLong.apply(template, context);
          return {
            ...varied,
            query: [...varied.query, ...queryNames.map((n): [string, string] => [n, existing ?? paramOf(template, name) ?? ''])],
          };
        },
        extended: true,
      }),
    );
  }
  // The unknown id again with the body form-encoded (the real service reads a form-encoded body too,
  // and a legacy handler for it may skip the lookup): still refused. The spec asks for JSON, so only
  // what a refusal of any kind satisfies, and the observed level, are asked.
  const unknown = variants.find((variant) => variant.key === 'unknown');
  if (card.body && unknown) {
    variants.push(
      bound({
        ...unknown,
        key: 'unknown-form-body',
        says: `${unknown.says}, with the body form-encoded`,
        apply: (template, context) => asFormTemplate(unknown.apply(template, context)),
        judge: (varied, context) => formSafe(unknown.judge!(varied, context)),
        expect: formSafe(unknown.expect),
        extended: true,
      }),
    );
  }
  // The unknown id again, asking for another language (one the service has no messages in): the
  // real service answers in English whatever Accept-Language says, so the row's observed message
  // still holds; a message table that falls back to another language than English breaks it.
  if (unknown) {
    variants.push(
      bound({
        ...unknown,
        key: 'unknown-in-another-language',
        says: 'well formed and naming no resource, asked for in French (Accept-Language: fr-FR)',
        apply: (template, context) => {
          const varied = unknown.apply(template, context);
          return { ...varied, headers: { ...varied.headers, 'accept-language': ['fr-FR, fr;q=0.9'] } };
        },
        extended: true,
      }),
    );
  }
  // The ids in each other's place: a server that finds each id by its prefix wherever it stands
  // takes the path for the valid one; the first parameter then holds an id of another kind.
  if (names.length > 1 && names[0] === name) {
    const other = names[1]!;
    const swap = (template: RequestTemplate): RequestTemplate => {
      const ownValue = paramOf(template, name) ?? '';
      const otherValue = paramOf(template, other) ?? '';
      return {
        ...template,
        path: template.path.map((part) =>
          'param' in part && part.param === name
            ? { param: name, value: otherValue }
            : 'param' in part && part.param === other
              ? { param: other, value: ownValue }
              : part,
        ),
      };
    };
    variants.push(
      bound({
        operator: 'near-value',
        key: `swapped-with-${other}`,
        says: `swapped with ${other} (each id in the other's place)`,
        apply: swap,
        judge: (varied) => paramExpectation(card, element, paramOf(varied, name) ?? '', false),
        expect: paramExpectation(card, element, paramValue(card, other, canonicalContext), false),
      }),
    );
  }
  // Two ids of exact lengths, one a character short and the other a character long: both
  // malformed, though a check of the length of a key built from both (stream + "#" + event, a
  // composite key) finds the sum right and looks the pair up. Either id may be named in the error.
  if (names.length > 1 && names[0] === name) {
    const other = names[1]!;
    const exact = (param: string) => {
      const limit = lengthClauseOf(card, param)?.limit;
      return limit?.min !== undefined && limit.min === limit.max ? limit.min : undefined;
    };
    const own = exact(name);
    const theirs = exact(other);
    if (own !== undefined && theirs !== undefined) {
      for (const [mine, their] of [
        [own - 1, theirs + 1],
        [own + 1, theirs - 1],
      ] as const) {
        variants.push(
          bound({
            operator: 'bounds',
            key: `${mine}-beside-${other}-of-${their}`,
            says: `of ${mine} characters, beside ${other} of ${their} (their lengths' sum right)`,
            apply: (template) => ({
              ...template,
              path: template.path.map((part) =>
                'param' in part && part.param === name
                  ? { param: name, value: idOfLength(part.value, mine) }
                  : 'param' in part && part.param === other
                    ? { param: other, value: idOfLength(part.value, their) }
                    : part,
              ),
            }),
            expect: {
              checks: [
                { clause: lengthClause(card, name)!, outcome: refused },
                { clause: 'errors.400.path', outcome: observedError('invalid_uri') },
              ],
              source: 'the spec bounds each id; the real service answers a malformed path id 400 invalid_uri',
            },
          }),
        );
      }
    }
  }
  // A matrix parameter after the id (";v=1", RFC 3986 3.3: ";" is a sub-delimiter, so this is another
  // segment): a server behind a container that cuts matrix parameters off finds the id.
  variants.push(
    bound({
      operator: 'extra-part',
      key: 'matrix-parameter',
      says: 'with a matrix parameter after it (;v=1)',
      apply: (template) => ({
        ...template,
        path: template.path.map((part) =>
          'param' in part && part.param === name
            ? { param: name, value: `${encodeURIComponent(part.value)};v=1`, encoded: true as const }
            : part,
        ),
      }),
      judge: (varied) => paramExpectation(card, element, paramOf(varied, name) ?? '', false),
      expect: paramExpectation(card, element, `${paramValue(card, name, canonicalContext)};v=1`, false),
      extended: true,
    }),
  );
  // A "+" after the id, sent as it is: in a path it is a "+" (RFC 3986 3.3), another id, though a
  // handler that decodes its path arguments with the query string's decoder (Python's unquote_plus)
  // reads a space there, which a strip or a padding collation then drops.
  variants.push(
    bound({
      operator: 'extra-part',
      key: 'plus-after',
      says: 'with a "+" after it, sent as it is (a space to a query-string decoder)',
      apply: sentEncoded(name, (value) => `${encodeURIComponent(value)}+`),
      judge: (varied) => paramExpectation(card, element, paramOf(varied, name) ?? '', false),
      expect: paramExpectation(card, element, `${paramValue(card, name, canonicalContext)}+`, false),
      extended: true,
    }),
  );
  if (rule.otherOwner) {
    const fixture = rule.otherOwner.fixture;
    variants.push(
      made(
        'other-owner',
        'other-owner',
        rule.otherOwner.what,
        (value, context) => (context.fixtures[fixture] as string | undefined) ?? value,
        {
          needs: [{ fixture }],
        },
      ),
    );
  }
  // The resource named by its name in place of its id (the stream's, the profile's, where the
  // target file names them): no id, though a slug-or-id finder (WHERE id = $1 OR name =
  // $1) finds the resource. Only where the target file names it.
  const nameOf = resourceNameOf(rule.fixture);
  if (nameOf) {
    variants.push(
      bound(
        made('near-value', 'its-name', `the ${rule.names}'s name in place of its id`, (value, context) => nameOf(context, value) ?? value, {
          needs: [
            {
              context: (context) =>
                nameOf(context, paramValue(card, name, context)) === undefined
                  ? `needs the ${rule.names}'s name in the target file (${NAME_FIXTURES[rule.fixture]?.field})`
                  : undefined,
            },
          ],
        }),
      ),
    );
  }
  // Every text equivalent of the shared list (equivalents.ts) it has no row of yet, past the
  // prefix: another id, though a lookup behind the layer that folds it finds the resource.
  for (const equivalent of equivalentsFor(
    variants.map((variant) => variant.key),
    element.id,
    card,
  )) {
    variants.push(
      made(equivalent.operator, equivalent.key, `with ${equivalent.says.replace(/^its/, "its random part's")}`, equivalent.always, {
        extended: true,
      }),
    );
  }
  // A variation that lands on the valid value is the valid request, and one that lands on another's value is that one.
  const valid = paramValue(card, name, canonicalContext);
  const seen = new Set<string>([valid]);
  return variants.filter((variant) => {
    if (fixtureBound.has(variant)) return true;
    const value = paramOf(variant.apply(templateWith(name, valid), canonicalContext), name) ?? '';
    if (seen.has(value)) return false;
    seen.add(value);
    return true;
  });
}

/** The id, percent-encoded, with its "_" (else its last letter) written as an overlong two-byte UTF-8 sequence. */
function withOverlongCharacter(id: string): string {
  const at = id.includes('_') ? id.indexOf('_') : id.search(/[A-Za-z](?=[^A-Za-z]*$)/);
  if (at < 0) return encodeURIComponent(id);
  const code = id.charCodeAt(at);
  const overlong = `%${(0xc0 | (code >> 6)).toString(16).toUpperCase()}%${(0x80 | (code & 0x3f)).toString(16).toUpperCase()}`;
  return `${encodeURIComponent(id.slice(0, at))}${overlong}${encodeURIComponent(id.slice(at + 1))}`;
}

/** The id with its alphabet's zero digit ("1" in base58, else "0") before its random part. */
function idWithAlphabetZeroPrefixed(id: string): string {
  const from = shapeOfIdPrefixLength(id);
  const zero = alphabetOfId(id)[0] ?? '0';
  return `${id.slice(0, from)}${zero}${id.slice(from)}`;
}

/** A Relay global id's type name for a resource named in words ("event stream" -> "EventStream"). */
function relayKindOf(names: string): string {
  return names
    .split(/[\s_-]+/)
    .map((word) => `${word.slice(0, 1).toUpperCase()}${word.slice(1)}`)
    .join('');
}

/** The id with its last ASCII letter or digit replaced by its full-width form (U+FF01 block), or unchanged without one. */
const fullWidthLast = (id: string): string => withFullwidth(id, /[A-Za-z0-9]/, true);

/** The id with its last letter that has a Cyrillic twin written as that twin (unchanged where none has). */
const cyrillicLast = (id: string): string => equivalent('cyrillic-look-alike').make(id) ?? id;

/** The template with path parameter `name` written by `encode` from its value, and sent as it is. */
function sentEncoded(name: string, encode: (value: string) => string): (template: RequestTemplate) => RequestTemplate {
  return (template) => ({
    ...template,
    path: template.path.map((part) =>
      'param' in part && part.param === name ? { param: name, value: encode(part.value), encoded: true as const } : part,
    ),
  });
}

/** The id with its first letter written as %u and four hex digits (e as %u0065), the rest percent-encoded as usual. */
function percentUFirstLetter(id: string): string {
  const at = id.search(/[A-Za-z]/);
  if (at < 0) return encodeURIComponent(id);
  const code = id.charCodeAt(at).toString(16).toUpperCase().padStart(4, '0');
  return `${encodeURIComponent(id.slice(0, at))}%u${code}${encodeURIComponent(id.slice(at + 1))}`;
}

/** The id, every character but the last percent-encoded as usual, the last one as %XX. */
function templateWith(name: string, value: string): RequestTemplate {
  return { method: 'GET', path: [{ param: name, value }], query: [], headers: {}, credential: { kind: 'none' } };
}

/** An expectation's checks that hold of a form-encoded request too: refusals of any kind, and the observed level's. */
function formSafe(expectation: Expectation): Expectation {
  if (!('checks' in expectation)) return expectation;
  const checks = expectation.checks.filter((check) => check.outcome.kind === 'refuse' || clauseOf(check.clause).level === 'observed');
  return checks.length > 0
    ? { checks, source: `${expectation.source}; the body form-encoded (the real service reads it so too)` }
    : { none: 'the spec asks for a JSON body: a form-encoded one may be refused however the target likes' };
}
