// The token endpoint's request (spec 5, rule 3) varied element by element: the method, the path,
// each client-credentials field and the encoding. Client authentication is exact (RFC 6749 2.3.1):
// a client id or secret off by one character or its letter case authenticates no one; the grant is
// client_credentials and no other; the audience names the management interface exactly (RFC 7519
// 4.1.3). A value that only a lossy encoding, a URL parser, a sanitiser or a lookup by position
// takes for the right one is another value. Each refusal's positive control is a valid token
// request of the same run.
import type { ClauseCheck } from '../../cards/card.ts';
import { JWT_BEARER_GRANT, type TokenRequestContext, type TokenRequestTemplate } from '../../cards/token-request.ts';
import { cards } from '../../cards/index.ts';
import { observed } from '../../observed.ts';
import { tokenPath } from '../../openapi.ts';
import { accepted, refused, status } from '../checks.ts';
import type { OperatorId } from '../operators.ts';
import { inJsonKey, wrappersFor } from '../wrappers.ts';
import { expectsRefusal, type Expectation } from '../row.ts';
import { equivalentsFor } from '../equivalents.ts';
import { nameNearMisses, swapCase, urlNearMisses, withCharacterEscapedAt } from '../values.ts';

export interface TokenVariant {
  operator: OperatorId;
  key: string;
  says: string;
  apply(template: TokenRequestTemplate, context: TokenRequestContext): TokenRequestTemplate;
  /** A configured role, or a condition on the target's context (the skip reason when it does not hold). */
  needs?: Array<{ role: string } | { context: (context: TokenRequestContext) => string | undefined }>;
  extended?: boolean;
  /** The request carries a token the tenant issued to the client (the run's own, TokenRequestContext.clientToken). */
  clientToken?: boolean;
  /** About the key client: its token asked for with a client assertion is a second positive control (row.ts). */
  keyClientControl?: boolean;
  /** Made in another form than the valid request's (TOKEN_TWINS): its positive control is the valid request in that form. */
  twin?: TokenTwin;
}

export interface TokenElement {
  id: string;
  label: string;
}

export interface TokenMatrixRow {
  id: string;
  element: TokenElement;
  variant: TokenVariant;
  expectation: Expectation;
}

type Made = TokenVariant & { expect: Expectation };

/** Two scopes the global client holds: the first two operations'. */
const GRANTED_PAIR = Object.values(cards)
  .slice(0, 2)
  .map((card) => card.scope.value)
  .join(' ');

/** Near misses of a granted scope (the first operation's), each a scope no client is granted. */
function nearGrantedScopes(): Array<{ key: string; says: string; scope: string }> {
  const granted = Object.values(cards)[0]!.scope.value;
  const cut = Math.max(granted.lastIndexOf('_'), granted.lastIndexOf(':'));
  return [
    { key: 'scope-prefix-of-granted', says: 'the start of a granted scope', scope: granted.slice(0, cut) },
    { key: 'scope-granted-with-suffix', says: 'a granted scope with a suffix', scope: `${granted}_all` },
  ];
}

/** Every operation's scope: the global client's grant (its role holds them all). */
const OPERATION_SCOPES = Object.values(cards).map((card) => card.scope.value);

const refusedWith = (clause: string, error?: 'invalid_client' | 'access_denied' | 'unsupported_grant_type'): ClauseCheck[] => [
  { clause, outcome: refused },
  ...(error ? [{ clause: 'token.observed.errors', outcome: { kind: 'token-error' as const, error } }] : []),
];

function setField(name: string, value: ((current: string, context: TokenRequestContext) => string | undefined) | undefined) {
  return (template: TokenRequestTemplate, context: TokenRequestContext): TokenRequestTemplate => ({
    ...template,
    fields: template.fields.flatMap(([field, current]): Array<[string, string]> => {
      if (field !== name) return [[field, current]];
      const next = value?.(current, context);
      return next === undefined ? [] : [[field, next]];
    }),
  });
}

/**
 * A field written as a list holding its value, in a JSON request: no string, so not the value
 * (a reader that turns a list of one into its element takes it for one). And as a MongoDB query
 * operator object ({"$ne": null}, {"$regex": "^<value>$"}): no string either, though a store
 * queried with the request's value as it came (a NoSQL injection) finds a client by it.
 */
function listedInJson(field: string, checks: ClauseCheck[], source: string): Made[] {
  const expect = { checks, source: `${source}; a parameter's value is a string (RFC 6749 4.4.2), and a list of one is none` };
  const operator = (which: '$ne' | '$regex', says: string): Made => ({
    operator: 'other-type',
    key: `operator-${which.slice(1)}-in-json`,
    says: `a query operator object ${says}, in a JSON request`,
    apply: (t) => ({ ...t, encoding: 'json', operators: { ...t.operators, [field]: which } }),
    expect: { checks, source: `${source}; a parameter's value is a string (RFC 6749 4.4.2), and an object is none` },
    extended: true,
  });
  return [
    {
      operator: 'other-type',
      key: 'list-in-json',
      says: 'a list holding it, in a JSON request',
      apply: (t) => ({ ...t, encoding: 'json', listed: [...(t.listed ?? []), field] }),
      expect,
    },
    operator('$ne', '({"$ne": null}, matching any value)'),
    operator('$regex', '({"$regex": "^<value>$"}, matching the value)'),
    // The number a SQL comparison of a text column with a number casts the column's text to (MySQL:
    // its leading digits, else 0): no string, though a store queried with the value as it came
    // finds every row whose text casts to it.
    // A JSON boolean true: no string, though PHP's loose comparison (==) of a non-empty string with
    // true is true, so a check written `$stored == $sent` passes.
    {
      operator: 'other-type',
      key: 'true-in-json',
      says: 'true (a JSON boolean), in a JSON request',
      apply: (t) => ({ ...t, encoding: 'json', operators: { ...t.operators, [field]: 'true' } }),
      expect: { checks, source: `${source}; a parameter's value is a string (RFC 6749 4.4.2), and a boolean is none` },
      extended: true,
    },
    {
      operator: 'other-type',
      key: 'number-cast-in-json',
      says: "the number SQL casts the value's text to (its leading digits, else 0), in a JSON request",
      apply: (t) => ({ ...t, encoding: 'json', operators: { ...t.operators, [field]: 'number-cast' } }),
      expect: { checks, source: `${source}; a parameter's value is a string (RFC 6749 4.4.2), and a number is none` },
      extended: true,
    },
    // Every other wrapper of the shared list (wrappers.ts): no string either, though a reader that
    // unwraps it takes it for the value.
    ...wrappersFor(['list-in-json', 'operator-ne-in-json'], '').map((entry): Made => ({
      operator: entry.operator,
      key: inJsonKey(entry),
      says: `${entry.says('<value>').replace('"<value>"', '<value>')}, in a JSON request`,
      apply: (t) => ({ ...t, encoding: 'json', inJson: { ...t.inJson, [field]: entry.key } }),
      expect: {
        checks,
        source: `${source}; a parameter's value is a string (RFC 6749 4.4.2), though ${entry.unwrappedBy} takes this for one`,
      },
      extended: true,
    })),
  ];
}

/**
 * A field sent in the query string instead of the body: RFC 6749 puts the request's parameters in
 * the entity-body (4.4.2) and keeps client credentials out of the request URI (2.3.1, MUST NOT).
 */
function inQuery(field: string): Made {
  return {
    operator: 'placement',
    key: 'in-query',
    says: 'in the query string instead of the body',
    apply: (t) => ({
      ...t,
      fields: t.fields.filter(([name]) => name !== field),
      query: [...(t.query ?? []), ...t.fields.filter(([name]) => name === field)],
    }),
    expect: {
      checks: refusedWith('token.observed.request-rules'),
      source: 'RFC 6749 4.4.2 (parameters in the entity-body) and 2.3.1 (client credentials never in the request URI)',
    },
  };
}

/** The variation with ";" written as it is in the form body, not percent-escaped: an ordinary character of a form value all the same. */
function literalSemicolon(made: Made): Made {
  return { ...made, apply: (t, c) => ({ ...made.apply(t, c), literal: [';'] }) };
}

/**
 * The field's value sent under a near name of the field (its name in capitals, camelCase or
 * kebab-case, with "." or a space for each "_", or "name[]"), and no field of its own name: the
 * parameter is absent, whatever a front end that reads names its own way takes it for (RFC 6749
 * 4.4.2 names the parameters; an unrecognised one is ignored, 3.2). Each gets what the field's
 * absent row gets.
 */
function nearNameVariants(field: string, variants: readonly Made[]): Made[] {
  const absent = variants.find((v) => v.key === 'absent')!.expect;
  if (!('checks' in absent)) return [];
  return nameNearMisses.flatMap(({ key, says, operator, rename }): Made[] => {
    const name = rename(field);
    if (name === undefined) return [];
    const renamed = (t: TokenRequestTemplate): TokenRequestTemplate => ({
      ...t,
      fields: t.fields.map(([f, v]): [string, string] => [f === field ? name : f, v]),
    });
    const expect = {
      checks: absent.checks,
      source: `${absent.source}; RFC 6749 4.4.2 names the parameter ${field}, and a parameter of another name is not it (an unrecognised one is ignored, 3.2): ${field} is absent`,
    };
    // The same near name as a member of a JSON body (which the endpoint also reads, observed): a
    // binder that maps members to fields by a naming policy (camelCase, any case) takes it.
    const inJson: Made[] =
      operator === 'case'
        ? [
            {
              operator,
              key: `${key}-in-json`,
              says: `sent as ${name} (its name ${says}) in a JSON body, and no ${field}`,
              apply: (t) => ({ ...renamed(t), encoding: 'json' }),
              expect,
              extended: true,
            },
          ]
        : [];
    return [
      { operator, key, says: `sent as ${name} (its name ${says}), and no ${field}`, apply: renamed, expect, extended: true },
      ...inJson,
    ];
  });
}

/** A field's variations, then its value under each near name of the field. */
const withNearNames = (field: string, variants: Made[]): Made[] => [...variants, ...nearNameVariants(field, variants)];

/** What a request breaking RFC 6749's request rules gets: POST only (3.2), no parameter twice (3.1, 3.2). */
const requestRules = (): { checks: ClauseCheck[]; source: string } => ({
  checks: refusedWith('token.observed.request-rules'),
  source: 'RFC 6749: POST only (3.2), no parameter twice (3.1)',
});

/**
 * The field given twice with the same value: RFC 6749 3.1 and 3.2 forbid a parameter more than
 * once, whatever its values, so it gets what a repeat with another value gets (the form's
 * secret-twice row); a check that refuses a repeat only where its values differ lets it through.
 * Extended: the rule is checked on real tenants by secret-twice.
 */
function repeatedAlike(field: string): Made {
  return {
    operator: 'duplicate',
    key: 'repeated-same-value',
    says: 'given twice with the same value',
    apply: (t) => ({ ...t, fields: [...t.fields, ...t.fields.filter(([name]) => name === field)] }),
    expect: { ...requestRules(), source: `${requestRules().source}, whatever its values` },
    extended: true,
  };
}

/**
 * A field given twice, once empty: still a repeated parameter (RFC 6749 3.1, 3.2), though a parser
 * that drops blank values (Python's parse_qs without keep_blank_values) sees it once.
 */
function repeatedBlank(field: string): Made[] {
  return (
    [
      ['repeated-blank-last', 'given twice, the valid value first and an empty one last', false],
      ['repeated-blank-first', 'given twice, an empty value first and the valid one last', true],
    ] as const
  ).map(([key, says, blankFirst]) => ({
    operator: 'duplicate',
    key,
    says,
    apply: givenTwice(field, () => '', blankFirst),
    expect: { ...requestRules(), source: `${requestRules().source}, an empty value too` },
    extended: true,
  }));
}

/** The field given twice: its valid value and `other(value)`, the other first where `otherFirst`. */
function givenTwice(field: string, other: (value: string) => string, otherFirst: boolean) {
  return (t: TokenRequestTemplate): TokenRequestTemplate => ({
    ...t,
    fields: t.fields.flatMap(([name, value]): Array<[string, string]> => {
      if (name !== field) return [[name, value]];
      const second: [string, string] = [name, other(value)];
      return otherFirst ? [second, [name, value]] : [[name, value], second];
    }),
  });
}

/** A field's variations, its near names', its repeat with the same value and its repeat empty. */
const ofParameter = (field: string, variants: Made[]): Made[] => [
  ...withNearNames(field, variants),
  repeatedAlike(field),
  ...repeatedBlank(field),
];

/** Every variation a field's text takes, each refused with `checks`. */
function textVariants(field: string, checks: ClauseCheck[], source: string, extra: Made[] = [], core: readonly string[] = []): Made[] {
  const refusal = { checks, source };
  const made = (operator: OperatorId, key: string, says: string, change: (value: string) => string | undefined): Made => ({
    operator,
    key,
    says,
    apply: setField(field, change),
    expect: refusal,
    ...(core.includes(key) ? {} : { extended: true }),
  });
  // A field absent or empty is a malformed request (observed: 400 invalid_request), not wrong credentials.
  const missing = {
    checks: checks.map((c) =>
      c.clause === 'token.observed.errors' ? { ...c, outcome: status(observed.tokens.errors.invalid_request!.status) } : c,
    ),
    source,
  };
  return [
    { ...made('absent', 'absent', 'absent', () => undefined), expect: missing },
    { ...made('empty', 'empty', 'empty', () => ''), expect: missing },
    made('truncate', 'truncate', 'without its last character', (v) => v.slice(0, -1)),
    made('extra-part', 'extra-character', 'with its first character added at the end', (v) => `${v}${v[0] ?? 'x'}`),
    // Text before it: a comparison by the end of the value (endsWith, a suffix match) takes it for the value.
    made('extra-part', 'leading-text', 'with text before it (urn:x:...)', (v) => `urn:x:${v}`),
    made('case', 'case', 'in the other letter case', swapCase),
    made('whitespace', 'trailing-space', 'followed by a space', (v) => `${v} `),
    made('whitespace', 'leading-space', 'after a space', (v) => ` ${v}`),
    // A NUL after the value, alone or with more text: another value, though a lookup that hands it
    // on as a C string (which ends at the first NUL) reads the value alone.
    made('extra-part', 'nul-after', 'followed by a NUL character (where a C string ends)', (v) => `${v}\0`),
    // Given twice, another value (the valid one with a character added) before or after the valid
    // one: RFC 6749 3.1 forbids the repeat, and the request does not carry the valid value alone, so
    // it is refused under the field's own clause too (observed: the repeat's 400), though a form
    // reader that keeps the last value (PHP's $_POST) or the first takes it for the valid one.
    ...(
      [
        ['repeated-other-first', 'given twice, another value first and the valid one last', true],
        ['repeated-other-last', 'given twice, the valid one first and another value last', false],
      ] as const
    ).map(([key, says, otherFirst]): Made => ({
      operator: 'duplicate',
      key,
      says,
      apply: givenTwice(field, (value) => `${value}${value[0] ?? 'x'}`, otherFirst),
      expect: {
        checks: [...checks.filter((c) => c.clause !== 'token.observed.errors'), ...requestRules().checks],
        source: `${source}; ${requestRules().source}`,
      },
      ...(core.includes(key) ? {} : { extended: true }),
    })),
    // A NUL and more text after the value: another value, though a lookup that hands it on as a C
    // string (which ends at the first NUL) reads the value alone.
    made('extra-part', 'nul-then-text', 'followed by a NUL character and text (where a C string would end)', (v) => `${v}\0x`),
    // ";" is an ordinary character of a form value (WHATWG URL, application/x-www-form-urlencoded):
    // a legacy query parser that also splits pairs on ";" reads the value alone.
    literalSemicolon(
      made('extra-part', 'semicolon-after', 'followed by ";x" (a pair separator only to a legacy form parser)', (v) => `${v};x`),
    ),
    // The value with its first character written as its percent-escape (%XX), which the form
    // encodes once more (%25XX): decoded once, as a form is, it is the text "%XX...", another
    // value; a reader that decodes the value again takes it for the right one.
    made(
      'encoding',
      'percent-encoded-character',
      'with its first character written as its percent-encoding (%XX, sent %25XX: another value once form-decoded)',
      withFirstCharacterEscaped,
    ),
    ...extra,
  ];
}

/** A text with its first character written as the percent-escapes of its UTF-8 bytes ("a..." -> "%61..."); "x" for an empty one. */
function withFirstCharacterEscaped(text: string): string {
  return withCharacterEscapedAt(text === '' ? 'x' : text, 0);
}

/** Characters a sanitiser, a URL parser or a C string deletes or stops at: each inside a value makes another value. */
const insideCharacters: Array<{ key: string; says: string; character: string }> = [
  { key: 'tab-inside', says: 'a tab', character: '\t' },
  { key: 'cr-inside', says: 'a carriage return', character: '\r' },
  { key: 'lf-inside', says: 'a line feed', character: '\n' },
  { key: 'nul-inside', says: 'a NUL character', character: '\0' },
  { key: 'zero-width-space-inside', says: 'a zero-width space (U+200B)', character: '\u200b' },
];

/** The value with each character of `insideCharacters` in its middle, refused with `expect`; those of `core` run on real tenants. */
function insideVariants(field: string, expect: Expectation, core: readonly string[]): Made[] {
  return insideCharacters.map(({ key, says, character }) => ({
    operator: 'extra-part',
    key,
    says: `with ${says} in its middle`,
    apply: setField(field, (v) => `${v.slice(0, Math.ceil(v.length / 2))}${character}${v.slice(Math.ceil(v.length / 2))}`),
    expect,
    ...(core.includes(key) ? {} : { extended: true }),
  }));
}

/**
 * grant_type spelled the nearest other ways: the gty claim's spelling, no separator, a space
 * before it. None is a grant type of RFC 6749 (4.4.2 names client_credentials; values compare
 * exactly): observed, 400 unsupported_grant_type where the word is another (RFC 6749 5.2).
 */
function grantTypeSpellings(): Made[] {
  const source = 'spec 5 rule 3: the client-credentials grant, grant_type client_credentials exactly (RFC 6749 4.4.2)';
  const unsupported = {
    checks: refusedWith('token.endpoint.grant-type', 'unsupported_grant_type'),
    source: `${source}; observed: 400 unsupported_grant_type (RFC 6749 5.2)`,
  };
  return [
    {
      operator: 'near-value',
      key: 'gty-spelling',
      says: `in the gty claim's spelling (${observed.tokens.gty})`,
      apply: setField('grant_type', () => observed.tokens.gty),
      expect: unsupported,
    },
    {
      operator: 'near-value',
      key: 'no-separator',
      says: 'without its underscore (clientcredentials)',
      apply: setField('grant_type', (v) => v.replace(/[-_]/g, '')),
      expect: unsupported,
      extended: true,
    },
  ];
}

const grantTypeVariants = (): Made[] =>
  textVariants(
    'grant_type',
    refusedWith('token.endpoint.grant-type'),
    'spec 5 rule 3: the client-credentials grant',
    [
      {
        operator: 'other-owner',
        key: 'other-grant',
        says: 'another grant type (password)',
        apply: setField('grant_type', () => 'password'),
        expect: {
          checks: refusedWith('token.endpoint.grant-type', 'unsupported_grant_type'),
          source: 'spec 5 rule 3; observed: 400 unsupported_grant_type with its description (RFC 6749 5.2)',
        },
      },
      // The other grant types a server may take with client authentication (RFC 7523's JWT bearer,
      // RFC 8693's token exchange, RFC 8628's device code, RFC 6749's refresh token): none is the
      // client-credentials grant, though a server that takes any grant it knows issues a token.
      ...(
        [
          ['jwt-bearer', JWT_BEARER_GRANT],
          ['token-exchange', 'urn:ietf:params:oauth:grant-type:token-exchange'],
          ['device-code', 'urn:ietf:params:oauth:grant-type:device_code'],
          ['refresh-token', 'refresh_token'],
        ] as const
      ).map(([key, grant]): Made => ({
        operator: 'other-owner',
        key: `other-grant-${key}`,
        says: `another grant type (${grant})`,
        apply: setField('grant_type', () => grant),
        expect: {
          checks: refusedWith('token.endpoint.grant-type'),
          source: 'spec 5 rule 3: the client-credentials grant, and no other',
        },
        extended: true,
      })),
      // A grant type's position in a server's enumeration of them (0 to 3), as a parser that also
      // takes an enum member's number reads it (.NET's Enum.TryParse, Python's IntEnum(int(...))):
      // no grant type's name, whichever member client credentials is.
      ...[0, 1, 2, 3].map((index): Made => ({
        operator: 'other-type',
        key: `enum-number-${index}`,
        says: `an enumeration member's number (${index})`,
        apply: setField('grant_type', () => String(index)),
        expect: {
          checks: refusedWith('token.endpoint.grant-type'),
          source: 'spec 5 rule 3: the client-credentials grant, named client_credentials (RFC 6749 4.4.2)',
        },
        extended: true,
      })),
      ...listedInJson('grant_type', refusedWith('token.endpoint.grant-type'), 'spec 5 rule 3: the client-credentials grant'),
      inQuery('grant_type'),
      ...grantTypeSpellings(),
    ],
    ['absent', 'case', 'leading-text'],
  );

/**
 * Positions in a list, where a client id was expected: a store that also finds clients by their
 * index (clients[id]) takes "0" for the first client and "1" for the second, which the global
 * client may be. With the global client's secret, neither is its id.
 */
function arrayIndexes(): Made[] {
  return ['0', '1'].map((index) => ({
    operator: 'other-type',
    key: `array-index-${index}`,
    says: `an array index (${index}) instead of an id, with this client's secret`,
    apply: setField('client_id', () => index),
    expect: {
      checks: refusedWith('token.endpoint.client-id', 'invalid_client'),
      source: 'spec 5 rule 3: the client authenticates by its id (RFC 6749 2.3.1); a position in a list names no client',
    },
    ...(index === '0' ? {} : { extended: true }),
  }));
}

/**
 * The client's display name instead of its id, with its secret: a name is no client id (RFC 6749
 * 2.3.1 authenticates the client by its id), so it gets what an unknown id gets; a lookup that
 * falls back to the name finds the client. Needs the name stated in the target file.
 */
function displayName(): Made {
  return {
    operator: 'other-type',
    key: 'display-name',
    says: "the client's display name (roles.global.name) instead of its id, with this client's secret",
    apply: setField('client_id', (v, c) => c.clientName ?? v),
    needs: [
      {
        context: (c) =>
          c.clientName === undefined
            ? "the target file states no roles.global.name (the global client's display name)"
            : c.clientName === c.clientId
              ? "the global client's display name is its id"
              : undefined,
      },
    ],
    expect: {
      checks: refusedWith('token.endpoint.client-id', 'invalid_client'),
      source: 'spec 5 rule 3: the client authenticates by its id (RFC 6749 2.3.1); its display name is no id',
    },
    extended: true,
  };
}

/**
 * A credential field left out, with a token the tenant issued to the client in the Authorization
 * header: an access token is no client authentication (RFC 6749 2.3: Basic, or the id and secret
 * in the body), so the field is absent whatever token comes along; an endpoint that reads the
 * client, or its proof, from a bearer token it is sent (its azp or sub) takes the request for one.
 */
function absentBesideClientToken(field: 'client_id' | 'client_secret', rest: string, checks: ClauseCheck[], by: string): Made {
  return {
    operator: 'placement',
    key: 'absent-bearer-token-of-client',
    says: `absent, ${rest}with a token the tenant issued to this client in the Authorization header (Bearer)`,
    clientToken: true,
    apply: (t, c) => ({ ...setField(field, () => undefined)(t, c), ...(c.clientToken === undefined ? {} : { bearer: c.clientToken }) }),
    expect: {
      checks,
      source: `spec 5 rule 3: the client authenticates by ${by} (RFC 6749 2.3.1); a bearer token is no client authentication method (RFC 6749 2.3)`,
    },
    extended: true,
  };
}

/** Separators a qualified id is written with: a connection's "|", a URN's ":", a path's "/", an address's "@", a domain's ".", a Windows domain's "\\". */
const SEPARATORS = [
  ['pipe', '|'],
  ['colon', ':'],
  ['slash', '/'],
  ['at', '@'],
  ['dot', '.'],
  ['backslash', '\\'],
] as const;

const clientIdVariants = (): Made[] =>
  textVariants(
    'client_id',
    refusedWith('token.endpoint.client-id', 'invalid_client'),
    'spec 5 rule 3: the client authenticates (RFC 6749 2.3.1)',
    [
      {
        // The client's id as its tokens name it (sub: <client_id>@clients): another string, no client's id.
        operator: 'extra-part',
        key: 'subject-form',
        says: `in the form of its tokens' subject (<client_id>${observed.tokens.subject_suffix})`,
        apply: setField('client_id', (v) => `${v}${observed.tokens.subject_suffix}`),
        expect: {
          checks: refusedWith('token.endpoint.client-id', 'invalid_client'),
          source: 'spec 5 rule 3: the client authenticates by its id',
        },
      },
      {
        operator: 'other-owner',
        key: 'another-client',
        says: "another client's, with this client's secret",
        apply: setField('client_id', (v, c) => c.otherClient?.clientId ?? v),
        needs: [{ role: 'non_global' }],
        expect: { checks: refusedWith('token.endpoint.client-id', 'invalid_client'), source: 'spec 5 rule 3' },
      },
      // The id behind a prefix joined by a separator (a tenant or connection qualifier, as in
      // "tenant|id", "tenant:id", "tenant/id", "tenant@id", "tenant.id", "tenant\\id"): another
      // string, no client's id, though a lookup that keeps the part after the separator finds it.
      ...SEPARATORS.map(([name, separator]): Made => ({
        operator: 'extra-part',
        key: `prefixed-${name}`,
        says: `behind a prefix joined by "${separator}" (tenant${separator}<client_id>), with this client's secret`,
        apply: setField('client_id', (v) => `tenant${separator}${v}`),
        expect: {
          checks: refusedWith('token.endpoint.client-id', 'invalid_client'),
          source: 'spec 5 rule 3: the client authenticates by its id (RFC 6749 2.3.1); a qualified id is another string',
        },
        ...(name === 'pipe' ? {} : { extended: true }),
      })),
      ...listedInJson('client_id', refusedWith('token.endpoint.client-id'), 'spec 5 rule 3: the client authenticates by its id'),
      inQuery('client_id'),
      absentBesideClientToken('client_id', "with the client's secret and ", refusedWith('token.endpoint.client-id'), 'its id'),
      // The id and the secret under the names the password grant gives its user's (username and
      // password, RFC 6749 4.3.2), and neither under its own: no client_id, though an extractor
      // shared with that grant falls back to those fields.
      {
        operator: 'near-value',
        key: 'as-username-and-password',
        says: "and client_secret sent as username and password (the password grant's names), and neither under its own name",
        apply: (t) => ({
          ...t,
          fields: t.fields.map(([f, v]): [string, string] => [f === 'client_id' ? 'username' : f === 'client_secret' ? 'password' : f, v]),
        }),
        expect: {
          checks: refusedWith('token.endpoint.client-id'),
          source:
            "spec 5 rule 3: the client authenticates by its id (RFC 6749 2.3.1); username and password are the password grant's fields, not the client's",
        },
        extended: true,
      },
      ...arrayIndexes(),
      displayName(),
    ],
    ['absent', 'truncate', 'case', 'leading-text'],
  ).map((made) =>
    made.key === 'absent' ? { ...made, expect: { checks: refusedWith('token.endpoint.client-id'), source: 'spec 5 rule 3' } } : made,
  );

const secretVariants = (): Made[] =>
  textVariants(
    'client_secret',
    refusedWith('token.endpoint.wrong-secret', 'invalid_client'),
    'spec 5 rule 3: the client authenticates (RFC 6749 2.3.1)',
    [
      {
        operator: 'near-value',
        key: 'wrong',
        says: 'a wrong secret',
        apply: setField('client_secret', () => 'a-wrong-secret-for-the-conformance-suite'),
        expect: { checks: refusedWith('token.endpoint.wrong-secret', 'invalid_client'), source: 'spec 5 rule 3' },
      },
      {
        // The same refusal in the endpoint's other encoding: a JSON request is authenticated alike.
        operator: 'encoding',
        key: 'wrong-in-json',
        says: 'a wrong secret, in a JSON request',
        apply: (t, c) => ({ ...setField('client_secret', () => 'a-wrong-secret-for-the-conformance-suite')(t, c), encoding: 'json' }),
        expect: {
          checks: refusedWith('token.endpoint.wrong-secret', 'invalid_client'),
          source: 'spec 5 rule 3; observed: the endpoint takes JSON too',
        },
      },
      {
        operator: 'other-owner',
        key: 'another-client',
        says: "another client's",
        apply: setField('client_secret', (v, c) => c.otherClient?.clientSecret ?? v),
        needs: [{ role: 'non_global' }],
        expect: { checks: refusedWith('token.endpoint.wrong-secret', 'invalid_client'), source: 'spec 5 rule 3' },
      },
      {
        // A client that authenticates with a key has no secret to match: a check that compares the
        // secret only where the client has one lets any secret through for it.
        operator: 'other-owner',
        key: 'for-a-key-only-client',
        keyClientControl: true,
        says: "this client's, beside the id of a client that authenticates with a key (private_key_jwt) and has no secret",
        apply: (t, c) => (c.keyOnlyClient ? setField('client_id', () => c.keyOnlyClient)(t, c) : t),
        needs: [
          {
            context: (c) =>
              c.keyOnlyClient
                ? undefined
                : 'the target file names no token_alternatives.key_client (a client that authenticates with a key)',
          },
        ],
        expect: {
          checks: refusedWith('token.endpoint.wrong-secret', 'invalid_client'),
          source: 'spec 5 rule 3: the client authenticates with its own credentials (RFC 6749 2.3)',
        },
      },
      absentBesideClientToken('client_secret', '', refusedWith('token.endpoint.wrong-secret'), 'its secret'),
      ...listedInJson('client_secret', refusedWith('token.endpoint.wrong-secret'), 'spec 5 rule 3: the client authenticates by its secret'),
      inQuery('client_secret'),
    ],
    ['empty', 'truncate', 'extra-character', 'case', 'leading-text', 'semicolon-after', 'percent-encoded-character'],
  );

/**
 * The audience written as a URL reference that a resolver against the tenant's origin turns into
 * the management audience: another string all the same, which names no API (RFC 7519 4.1.3
 * compares audiences as strings; RFC 3986 5.2 resolution and 6.2.2.3 dot-segment removal are not
 * the comparison). The first runs on real tenants.
 */
const audienceReferences: Array<{ key: string; says: string; change: (url: string) => string; operator: OperatorId }> = [
  { key: 'path-only', says: 'its path alone (a relative reference)', change: (url) => new URL(url).pathname, operator: 'truncate' },
  {
    key: 'scheme-relative',
    says: 'without its scheme (//host/path, a network-path reference)',
    change: (url) => url.replace(/^[a-z]+:/i, ''),
    operator: 'truncate',
  },
  { key: 'dot-segment', says: 'with a "./" segment after its path', change: (url) => `${url}./`, operator: 'extra-part' },
  // A slash doubled inside its path (an empty segment): another path, though a router's clean-up
  // that merges repeated slashes (path.Clean, merge_slashes) reads the audience.
  {
    key: 'slash-doubled-inside',
    says: 'with a slash doubled inside its path (/api//v2/)',
    change: (url) =>
      /^\w+:\/\/[^/]+\/[^/]+\//.test(url) ? url.replace(/^(\w+:\/\/[^/]+\/[^/]+)\//, '$1//') : url.replace(/^(\w+:\/\/[^/]+)\//, '$1//'),
    operator: 'extra-part',
  },
  {
    key: 'dot-dot-segment',
    says: 'with another segment and ".." before its last segment (/api/other/../v2/)',
    change: (url) => url.replace(/\/([^/]+)\/?$/, (last) => `/other/..${last}`),
    operator: 'extra-part',
  },
];

/** The smallest changes to the audience URL: a URL's near misses (values.ts), its case, a space after it, another API's. */
const audienceNearMisses: Array<{ key: string; says: string; change: (url: string) => string; operator: OperatorId }> = [
  ...urlNearMisses,
  { key: 'case', says: 'in capitals', change: (url) => url.toUpperCase(), operator: 'case' },
  { key: 'trailing-space', says: 'followed by a space', change: (url) => `${url} `, operator: 'whitespace' },
  { key: 'leading-space', says: 'after a space', change: (url) => ` ${url}`, operator: 'whitespace' },
  // Its path in capitals, the host as it is: another string (RFC 3986 6.2.2.1 folds the case of the
  // scheme and host only), though a table keyed with case-insensitive paths (a file system's habit) finds it.
  {
    key: 'path-capitals',
    says: 'with its path in capitals',
    change: (url) => url.replace(/^(\w+:\/\/[^/]+)(.*)$/, (_, origin: string, path: string) => `${origin}${path.toUpperCase()}`),
    operator: 'case',
  },
  { key: 'another-api', says: "another API's", change: () => 'https://another-api.example.com/', operator: 'other-owner' },
  // The interface's other versions, as its paths are varied: another API (or none), though a table
  // that keeps a retired version's identifier as an alias of this one issues for it.
  {
    key: 'previous-version',
    says: 'naming the previous version (/api/v1/)',
    change: (url) => withVersionMoved(url, -1),
    operator: 'near-value',
  },
  { key: 'next-version', says: 'naming the next version (/api/v3/)', change: (url) => withVersionMoved(url, 1), operator: 'near-value' },
  // Another string that names the same site to a person and to a lenient normaliser: "www." before
  // the host (a site's marketing host, folded away by a "www." stripper). The host in capitals, its
  // trailing dot and its port spelled out are urlNearMisses'.
  {
    key: 'host-www',
    says: 'with "www." before its host name',
    change: (url) => url.replace(/^(\w+:\/\/)/, '$1www.'),
    operator: 'extra-part',
  },
  {
    key: 'semicolon-after',
    says: 'followed by ";x" (a pair separator only to a legacy form parser)',
    change: (url) => `${url};x`,
    operator: 'extra-part',
  },
  {
    key: 'nul-then-text',
    says: 'followed by a NUL character and text (where a C string would end)',
    change: (url) => `${url}\0x`,
    operator: 'extra-part',
  },
  ...audienceReferences,
  // Another identifier of the same tenant, which names no API: its issuer (the origin and "/") and
  // its token endpoint, both the audience of a client assertion (RFC 7523 3), and its userinfo
  // endpoint (an OpenID Connect token's other audience). A check written for client assertions,
  // or one that takes whatever names the tenant, gives the management interface's token for them.
  {
    key: 'tenant-issuer',
    says: 'the tenant\'s issuer (its origin and "/")',
    change: (url) => `${originOf(url)}/`,
    operator: 'other-owner',
  },
  {
    key: 'tenant-token-endpoint',
    says: "the tenant's token endpoint (<origin>/oauth/token)",
    change: (url) => `${originOf(url)}/${tokenPath.replace(/^\/+|\/+$/g, '')}`,
    operator: 'other-owner',
  },
  {
    key: 'tenant-userinfo',
    says: "the tenant's userinfo endpoint (<origin>/userinfo)",
    change: (url) => `${originOf(url)}/userinfo`,
    operator: 'other-owner',
  },
];

/** A URL whose last "v<n>" segment is moved by `by` (v2 -> v1 or v3). */
function withVersionMoved(url: string, by: number): string {
  return url.replace(/\/v(\d+)(\/?)$/, (_, n: string, slash: string) => `/v${Number(n) + by}${slash}`);
}

/** The scheme and authority of a URL as written (no trailing slash); the text before its first "/" after "//" otherwise. */
function originOf(url: string): string {
  const match = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i.exec(url);
  return match ? match[0] : url;
}

/** The audience near misses that run against test doubles only (or with --matrix full). */
const EXTENDED_AUDIENCES: readonly string[] = [
  'next-version',
  'slash-doubled-inside',
  'fragment',
  'empty-query',
  'empty-fragment',
  'nul-then-text',
  'segment-before-path',
  'trailing-space',
  'semicolon-after',
  'scheme-relative',
  'dot-segment',
  'dot-dot-segment',
  'userinfo',
  'percent-encoded-character',
  'host-ideographic-full-stops',
  'host-dot-replaced',
  'host-www',
  'host-capitals',
  'tenant-token-endpoint',
  'tenant-userinfo',
];

/**
 * Another API of the tenant, which the client holds no grant for, the request naming a management
 * scope the client holds (scope parameter): still no token, though a resolver that finds the
 * resource server by the scopes asked for, and reads the audience only when none is, issues a
 * management token.
 */
function ungrantedApiBesideManagementScope(): Made {
  return {
    operator: 'other-owner',
    key: 'ungranted-api-with-management-scope',
    says: `another API of the tenant, which the client holds no grant for, beside a scope parameter naming ${cards.redeliver.scope.value} (a management scope it holds)`,
    apply: (t, c) => {
      const varied = setField('audience', (v, context) => context.ungrantedAudience ?? v)(t, c);
      return { ...varied, fields: [...varied.fields, ['scope', cards.redeliver.scope.value]] };
    },
    needs: [
      { context: (c) => (c.ungrantedAudience ? undefined : 'the target file names no ungranted_audience (another API of the tenant)') },
    ],
    expect: {
      checks: refusedWith('token.endpoint.audience', 'access_denied'),
      source: 'spec 5 rule 3: no token for an API the client holds no grant for, whatever scopes it asks; observed: 403 access_denied',
    },
    extended: true,
  };
}

function audienceVariants(): Made[] {
  const refusal = {
    checks: refusedWith('token.endpoint.audience', 'access_denied'),
    source: 'spec 5 rule 3: the audience is the management interface',
  };
  return [
    ...audienceNearMisses.map(({ key, says, change, operator }): Made => {
      const made: Made = {
        operator,
        key,
        says,
        apply: setField('audience', change),
        // The host in capitals leaves a host of no letter (an IP address) as it is: no near miss there.
        ...(key === 'host-capitals'
          ? {
              needs: [
                {
                  context: (c: TokenRequestContext) =>
                    change(c.audience) === c.audience ? `the audience ${c.audience} has no letter in its host` : undefined,
                },
              ],
            }
          : {}),
        expect: refusal,
        ...(EXTENDED_AUDIENCES.includes(key) ? { extended: true } : {}),
      };
      return key === 'semicolon-after' ? literalSemicolon(made) : made;
    }),
    {
      // An API of the tenant, not one the client is granted: a grant is per API (observed:
      // client_not_authorized), so holding the management interface's grant gives it no token.
      operator: 'other-owner',
      key: 'ungranted-api',
      says: 'another API of the tenant, which the client holds no grant for',
      apply: setField('audience', (v, c) => c.ungrantedAudience ?? v),
      needs: [
        { context: (c) => (c.ungrantedAudience ? undefined : 'the target file names no ungranted_audience (another API of the tenant)') },
      ],
      expect: {
        checks: refusedWith('token.endpoint.audience', 'access_denied'),
        source: 'spec 5 rule 3: no token for an API the client holds no grant for; observed: 403 access_denied',
      },
    },
    ungrantedApiBesideManagementScope(),
    ...listedInJson('audience', refusedWith('token.endpoint.audience'), 'spec 5 rule 3: the audience is the management interface'),
    ...insideVariants(
      'audience',
      {
        checks: refusedWith('token.endpoint.audience'),
        source:
          'spec 5 rule 3: the audience is the management interface, compared exactly (RFC 7519 4.1.3); a URL parser or a log sanitiser deletes these characters, the comparison does not; which error the service gives a control character is not known',
      },
      ['lf-inside'],
    ),
    {
      operator: 'absent',
      key: 'absent',
      says: 'absent',
      apply: setField('audience', () => undefined),
      expect: { none: "a tenant may name a default audience; what the service does without one is the tenant's setting" },
      extended: true,
    },
  ];
}

/** A text form-encoded (application/x-www-form-urlencoded), as RFC 6749 2.3.1 encodes Basic credentials. */
function formEncoded(text: string): string {
  return new URLSearchParams([['', text]]).toString().slice(1);
}

/** The first character of a text percent-escaped `times` times ("e" -> "%65", "%2565"), the rest form-encoded. */
function firstEscaped(text: string, times: number): string {
  let first = `%${text.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`;
  for (let n = 1; n < times; n += 1) first = `%25${first.slice(1)}`;
  return `${first}${formEncoded(text.slice(1))}`;
}

/**
 * The valid request with the client authenticated by HTTP Basic (RFC 6749 2.3.1, RFC 7617):
 * client_id and client_secret out of the body, form-encoded into the user-id and password.
 */
function withBasic(
  change: { userId?: (id: string) => string; password?: (secret: string) => string } = {},
  fields: (context: TokenRequestContext) => Array<[string, string]> = () => [],
) {
  return (t: TokenRequestTemplate, c: TokenRequestContext): TokenRequestTemplate => ({
    ...t,
    fields: [...t.fields.filter(([name]) => name !== 'client_id' && name !== 'client_secret'), ...fields(c)],
    basic: {
      userId: change.userId?.(c.clientId) ?? formEncoded(c.clientId),
      password: change.password?.(c.clientSecret) ?? formEncoded(c.clientSecret),
    },
  });
}

/**
 * Basic credentials beside a client_secret in the body: two authentication methods in one request,
 * which RFC 6749 2.3 forbids (observed: 400 invalid_request), whether the Basic password is the
 * secret or empty (a server that completes one method from the other takes the pair for one).
 */
function twoMethods(source: string): Made[] {
  const expect = {
    checks: refusedWith('token.observed.request-rules'),
    source: `${source}; RFC 6749 2.3: the client MUST NOT use more than one authentication method in a request`,
  };
  return [
    {
      operator: 'duplicate',
      key: 'secret-in-body-too',
      extended: true,
      says: 'with client_secret in the body as well (two methods)',
      apply: withBasic({}, (c) => [['client_secret', c.clientSecret]]),
      expect,
    },
    {
      operator: 'empty',
      key: 'empty-password-secret-in-body',
      extended: true,
      says: 'with an empty password and client_secret in the body (two methods, neither whole)',
      apply: withBasic({ password: () => '' }, (c) => [['client_secret', c.clientSecret]]),
      expect,
    },
  ];
}

/**
 * Basic credentials with a JSON body: two forms the endpoint takes, together (a JSON model written
 * for the SDKs, which send the secret in the body, that asks for client_id refuses it).
 */
function basicWithJsonBody(source: string): Made[] {
  return [
    {
      operator: 'placement',
      key: 'basic-with-json-body',
      says: 'instead of body parameters (client_secret_basic), the rest of the request a JSON body',
      apply: (t, c) => withBasic()({ ...t, encoding: 'json' }, c),
      extended: true,
      expect: {
        checks: [
          { clause: 'token.endpoint', outcome: accepted },
          { clause: 'token.observed.json-request', outcome: accepted },
        ],
        source: `${source}; observed: the endpoint takes a JSON body too`,
      },
    },
  ];
}

/**
 * Basic credentials written otherwise than RFC 7617 2 has them (user-id ":" password, base64): no
 * colon (a reader that splits at the client id it knows takes the rest for the secret), or the pair
 * as text (a reader that falls back to the text when it is no base64); and the Authorization
 * header twice, one of the two with a wrong secret, in either order (RFC 9110 5.3: a singleton
 * field; a server that keeps the first or the last takes the request for the other's client).
 */
function malformedBasic(source: string): Made[] {
  const wrongSecret = (says: string) => ({
    checks: refusedWith('token.endpoint.wrong-secret'),
    source: `${source}; RFC 7617 2: the credentials are base64 of user-id ":" password, so ${says}`,
  });
  const twice = {
    checks: refusedWith('token.observed.request-rules'),
    source: `${source}; RFC 9110 5.3: Authorization is not a list, so two of them are no one credential; RFC 6749 2.3: one authentication per request`,
  };
  const wrong = 'a-wrong-secret-for-the-conformance-suite';
  type Basic = NonNullable<TokenRequestTemplate['basic']>;
  const row = (operator: OperatorId, key: string, says: string, change: Partial<Basic>, expect: Expectation): Made => ({
    operator,
    key,
    extended: true,
    says,
    apply: (t, c) => {
      const made = withBasic()(t, c);
      return { ...made, basic: { ...made.basic!, ...change } };
    },
    expect,
  });
  return [
    row(
      'truncate',
      'without-colon',
      'with the user-id and password joined without their colon',
      { written: 'without-colon' },
      wrongSecret('a text without a colon carries no password'),
    ),
    row(
      'encoding',
      'as-text',
      'with the user-id and password as text, not base64',
      { written: 'as-text' },
      wrongSecret('a value that is no base64 carries no credentials'),
    ),
    row(
      'duplicate',
      'second-header-wrong-secret',
      'twice, the second Authorization header with a wrong secret',
      { second: { password: wrong, first: false } },
      twice,
    ),
    row(
      'duplicate',
      'first-header-wrong-secret',
      'twice, the first Authorization header with a wrong secret',
      { second: { password: wrong, first: true } },
      twice,
    ),
  ];
}

// HTTP Basic client authentication: RFC 6749 2.3.1 has every authorization server support it for
// clients with a password (observed: client_secret_basic, the discovery document). The client is
// the one the header authenticates; its credentials are form-decoded once.
// They are extended (test doubles, or --matrix full): the two that would be issued a token each
// spend a token of the tenant's allotment, and the refusals of a Basic request are kept beside
// them, in the runs where the same Basic request is shown accepted.
function basicVariants(): Made[] {
  const source = 'spec 5 rule 3: client credentials; RFC 6749 2.3.1: the server supports HTTP Basic for clients with a password';
  const wrongSecret = {
    checks: refusedWith('token.endpoint.wrong-secret', 'invalid_client'),
    source: `${source}; the password is form-decoded once`,
  };
  return [
    ...basicWithJsonBody(source),
    {
      operator: 'placement',
      key: 'basic',
      says: 'instead of body parameters (client_secret_basic)',
      apply: withBasic(),
      // It mints a token of the tenant's allotment: against test doubles, or with --matrix full.
      extended: true,
      expect: {
        checks: [
          { clause: 'token.endpoint', outcome: accepted },
          { clause: 'token.observed.response', outcome: accepted },
        ],
        source: `${source}; observed: the answer is the endpoint's, {access_token, token_type "Bearer", expires_in, scope}`,
      },
    },
    {
      operator: 'near-value',
      key: 'wrong-secret',
      extended: true,
      says: 'with a wrong secret',
      apply: withBasic({ password: () => 'a-wrong-secret-for-the-conformance-suite' }),
      expect: { checks: refusedWith('token.endpoint.wrong-secret', 'invalid_client'), source },
    },
    // The password followed by a colon and text: RFC 7617 2 splits user-id and password at the first
    // colon only, so this is another password (the secret and ":x"), though a reader that splits at
    // every colon and keeps the second part reads the secret.
    {
      operator: 'extra-part',
      key: 'secret-colon-text',
      extended: true,
      says: 'with its password followed by a colon and text (<secret>:x)',
      apply: withBasic({ password: (secret) => `${formEncoded(secret)}:x` }),
      expect: wrongSecret,
    },
    {
      operator: 'encoding',
      key: 'secret-escaped-twice',
      extended: true,
      says: 'with the first character of its secret percent-escaped twice (another secret once decoded)',
      apply: withBasic({ password: (secret) => firstEscaped(secret, 2) }),
      expect: wrongSecret,
    },
    {
      operator: 'encoding',
      key: 'secret-escaped-once',
      says: 'with the first character of its secret percent-escaped (the same secret once decoded)',
      apply: withBasic({ password: (secret) => firstEscaped(secret, 1) }),
      extended: true,
      expect: { checks: [{ clause: 'token.endpoint', outcome: accepted }], source: `${source}; the password is form-decoded` },
    },
    ...twoMethods(source),
    ...malformedBasic(source),
    {
      operator: 'other-owner',
      key: 'body-names-another-client',
      extended: true,
      says: 'with a client_id in the body naming another client of the tenant',
      apply: withBasic({}, (c) => [['client_id', c.otherClient?.clientId ?? 'another-client']]),
      needs: [{ role: 'non_global' }],
      expect: {
        checks: refusedWith('token.endpoint.client-id'),
        source:
          'spec 5 rule 3: the client authenticates by its own id and secret together (RFC 6749 2.3.1); one authentication per request (2.3)',
      },
    },
  ];
}

/**
 * A scope parameter that names no scope (empty, or a space): it narrows nothing, so a token issued
 * for it carries the client's grant (RFC 6749 3.3: the server's default, or the request refused).
 * A token carrying none would be refused by every operation. Extended: an accepted request mints a
 * token of the tenant's allotment.
 */
function emptyScopes(): Made[] {
  const expect = {
    checks: [{ clause: 'token.scopes', outcome: { kind: 'token-with-scopes' as const, scopes: OPERATION_SCOPES } }],
    source:
      "spec 5 rule 3: tokens carry scopes; a scope naming none asks for no narrowing (RFC 6749 3.3: the server's default or a refusal), and the global client is granted every operation's",
  };
  return [
    {
      operator: 'empty',
      key: 'scope-empty',
      says: 'with a scope parameter present and empty (scope=)',
      apply: (t) => ({ ...t, fields: [...t.fields, ['scope', '']] }),
      expect,
      extended: true,
    },
    {
      operator: 'whitespace',
      key: 'scope-blank',
      says: 'with a scope parameter of one space',
      apply: (t) => ({ ...t, fields: [...t.fields, ['scope', ' ']] }),
      expect,
      extended: true,
    },
  ];
}

/**
 * Two granted scopes written apart by something other than one space: RFC 6749 3.3 has the scope a
 * list of scope-tokens one space (%x20) apart, each printable ASCII other than a space, a quote or a
 * backslash (so a tab or a no-break space is in none, and a comma joins two into one). A server may
 * refuse such a list, read it as one scope it does not grant, or split it on any white space; whatever it does, a token it issues
 * lists scopes of the catalogue one space apart (the claim written by the server, never copied from
 * the request). Extended: an accepted request mints a token of the tenant's allotment.
 */
function scopeSeparators(): Made[] {
  const [first, second] = GRANTED_PAIR.split(' ') as [string, string];
  const separators: Array<{ key: string; says: string; scope: string }> = [
    { key: 'tab', says: 'a tab', scope: `${first}\t${second}` },
    { key: 'line-feed', says: 'a line feed', scope: `${first}\n${second}` },
    { key: 'crlf', says: 'CR LF', scope: `${first}\r\n${second}` },
    { key: 'two-spaces', says: 'two spaces', scope: `${first}  ${second}` },
    { key: 'comma', says: 'a comma', scope: `${first},${second}` },
    { key: 'comma-space', says: 'a comma and a space', scope: `${first}, ${second}` },
    { key: 'no-break-space', says: 'a no-break space (U+00A0)', scope: `${first}\u00a0${second}` },
    { key: 'plus', says: 'a plus sign (%2B in the form)', scope: `${first}+${second}` },
    { key: 'space-around', says: 'one space, with a space before and after the list', scope: ` ${first} ${second} ` },
  ];
  return separators.map(({ key, says, scope }) => ({
    operator: key === 'space-around' ? 'whitespace' : 'extra-part',
    key: `scope-apart-by-${key}`,
    says: `with a scope parameter naming two granted scopes apart by ${says} (${JSON.stringify(scope)})`,
    apply: (t) => ({ ...t, fields: [...t.fields, ['scope', scope]] }),
    extended: true,
    expect: {
      checks: [{ clause: 'scopes.catalogue', outcome: { kind: 'token-of-catalogue' } }],
      source:
        'spec 5: a scope is one of the catalogue, written action:resource; RFC 6749 3.3: scopes one space apart, so a token lists its own that way whatever the request wrote',
    },
  }));
}

/**
 * The body written in one media type and labelled another, or not at all: RFC 6749 has the
 * parameters form-encoded (4.4.2, appendix B), the service reads JSON too (observed), and a
 * body of any other type carries no parameters (a server that sniffs its content takes them).
 */
function mislabelledBodies(): Made[] {
  const expect = {
    checks: refusedWith('token.observed.request-rules'),
    source:
      'RFC 6749 4.4.2 and appendix B: form-encoded parameters; observed: form-encoded or JSON; a body of another media type is read as neither',
  };
  const labelled = (key: string, says: string, encoding: 'json' | 'form', contentType: string | null, extended: boolean): Made => ({
    operator: 'encoding',
    key,
    says,
    apply: (t) => ({ ...t, encoding, contentType }),
    // Without a Content-Type, RFC 9110 8.3 lets a recipient examine the body: extended, as doubtful.
    expect: contentType === null ? { ...expect, source: `${expect.source}; RFC 9110 8.3 lets a server sniff a body of no type` } : expect,
    ...(extended ? { extended: true } : {}),
  });
  return [
    labelled('json-as-text-plain', 'as a JSON body labelled text/plain', 'json', 'text/plain', false),
    labelled('json-without-content-type', 'as a JSON body without a Content-Type', 'json', null, true),
    labelled('form-as-text-plain', 'form-encoded, labelled text/plain', 'form', 'text/plain', true),
  ];
}

/**
 * Two causes of a refusal at once, each a row of this family: a wrong secret (401) with an
 * audience naming no API or a scope the client is not granted (403). The client is authenticated
 * first (observed, inferred: token.observed.order), so the answer says nothing of what exists.
 */
function twoCauses(elements: Array<{ element: TokenElement; variants: Made[] }>): Made[] {
  const find = (element: string, key: string): Made => {
    const made = elements.find((e) => e.element.id === element)?.variants.find((v) => v.key === key);
    if (!made) throw new Error(`the token matrix has no row ${element} ${key}`);
    return made;
  };
  const secret = find('form.client_secret', 'wrong');
  const expect = {
    checks: [{ clause: 'token.observed.order', outcome: { kind: 'token-error' as const, error: 'invalid_client' as const } }],
    source:
      'observed: authentication (401) is decided before authorization (403) so an unauthenticated caller learns nothing (auth.order); RFC 6749 3.2.1: the token endpoint authenticates the client',
  };
  const pair = (other: Made, key: string, says: string, extended: boolean): Made => ({
    operator: 'near-value',
    key,
    says: `${secret.says} and ${says} (authentication first)`,
    apply: (t, c) => other.apply(secret.apply(t, c), c),
    expect,
    ...(extended ? { extended: true } : {}),
  });
  return [
    pair(
      find('form.audience', 'another-api'),
      'wrong-secret-and-unknown-audience',
      "another API's audience, which names no API of the tenant",
      false,
    ),
    pair(find('form', 'scope-not-granted'), 'wrong-secret-and-ungranted-scope', 'a scope the client is not granted', true),
  ];
}

/** Every element's variations, then the pairs of them that make two causes. */
/** The text equivalents that run on real tenants too, by field: one lossy twin of the secret. */
const CORE_EQUIVALENTS: Readonly<Record<string, readonly string[]>> = { client_secret: ['low-byte-twin'] };

/**
 * A field's variations and every text equivalent of the shared list (equivalents.ts) it has no row
 * of yet: another value, refused as the value in the other case is (the field's "case" row),
 * though an endpoint behind the layer that folds it reads the valid one (a lossy encoding, NFKC, a
 * case mapping past ASCII, a hash of it). Test doubles only, but for CORE_EQUIVALENTS.
 */
function withTextEquivalents({ element, variants }: { element: TokenElement; variants: Made[] }): {
  element: TokenElement;
  variants: Made[];
} {
  const reference = variants.find((variant) => variant.key === 'case');
  if (!element.id.startsWith('form.') || !reference) return { element, variants };
  const field = element.id.slice('form.'.length);
  const added = equivalentsFor(
    variants.map((variant) => variant.key),
    element.id,
  ).map((equivalent): Made => ({
    operator: equivalent.operator,
    key: equivalent.key,
    says: `with ${equivalent.says}`,
    apply: setField(field, equivalent.always),
    expect: reference.expect,
    ...((CORE_EQUIVALENTS[field] ?? []).includes(equivalent.key) ? {} : { extended: true }),
  }));
  return { element, variants: [...variants, ...added] };
}

function requestVariants(): Array<{ element: TokenElement; variants: Made[] }> {
  const elements = singleVariants().map(withTextEquivalents);
  return [...elements, { element: { id: 'two-causes', label: 'two causes at once,' }, variants: twoCauses(elements) }];
}

// Long: the client-credentials request's elements and their variations, one entry each, as the
// catalogue lists them.
function singleVariants(): Array<{ element: TokenElement; variants: Made[] }> {
  return [
    {
      element: { id: 'method', label: 'the method' },
      variants: [
        {
          operator: 'method',
          key: 'GET',
          says: 'GET, the fields in the query string',
          apply: (t) => ({ ...t, method: 'GET' }),
          expect: requestRules(),
        },
        {
          operator: 'method',
          key: 'PUT',
          says: 'PUT',
          apply: (t) => ({ ...t, method: 'PUT' }),
          expect: requestRules(),
          extended: true,
        },
      ],
    },
    {
      element: { id: 'path', label: 'the path' },
      variants: [
        {
          operator: 'truncate',
          key: 'no-trailing-slash',
          says: 'without its trailing slash',
          apply: (t) => ({ ...t, path: t.path[t.path.length - 1] === '' ? t.path.slice(0, -1) : [...t.path, ''] }),
          expect: {
            checks: [{ clause: 'token.observed.json-request', outcome: accepted }],
            source: 'observed: with or without the trailing slash',
          },
        },
        {
          operator: 'case',
          key: 'case',
          says: 'in capitals',
          apply: (t) => ({ ...t, path: t.path.map((s) => s.toUpperCase()) }),
          expect: { none: 'the spec gives the path; how the service answers another is not known' },
          extended: true,
        },
      ],
    },
    { element: { id: 'form.grant_type', label: 'grant_type' }, variants: ofParameter('grant_type', grantTypeVariants()) },
    { element: { id: 'form.client_id', label: 'client_id' }, variants: ofParameter('client_id', clientIdVariants()) },
    { element: { id: 'form.client_secret', label: 'client_secret' }, variants: ofParameter('client_secret', secretVariants()) },
    // No near names of audience: what a request without one gets is the tenant's setting (its absent row expects nothing).
    {
      element: { id: 'form.audience', label: 'audience' },
      variants: [...audienceVariants(), repeatedAlike('audience'), ...repeatedBlank('audience')],
    },
    { element: { id: 'basic', label: 'the client authenticated with HTTP Basic' }, variants: basicVariants() },
    {
      element: { id: 'form', label: 'the fields' },
      variants: [
        {
          operator: 'duplicate',
          key: 'secret-twice',
          says: 'with client_secret twice, the right one then a wrong one',
          apply: (t) => ({ ...t, fields: [...t.fields, ['client_secret', 'a-wrong-secret-for-the-conformance-suite']] }),
          expect: requestRules(),
        },
        // The valid form sent in chunks, with no Content-Length: the same request (RFC 9112 6.1,
        // 7.1), though a server that reads Content-Length bytes (a WSGI app behind a server that
        // does not de-chunk) reads no parameters.
        {
          operator: 'encoding',
          key: 'chunked',
          says: 'form-encoded, sent in chunks (Transfer-Encoding: chunked, no Content-Length)',
          apply: (t) => ({ ...t, chunked: true }),
          expect: {
            checks: [{ clause: 'token.endpoint', outcome: accepted }],
            source:
              'spec 5 rule 3: form parameters; RFC 9112 6.1 and 7.1: the chunked transfer coding, which every HTTP/1.1 recipient parses',
          },
        },
        {
          operator: 'extra-part',
          key: 'form-charset',
          says: 'form-encoded with a charset parameter',
          apply: (t) => ({ ...t, encoding: 'form-charset' }),
          expect: {
            checks: [{ clause: 'token.endpoint', outcome: accepted }],
            source: 'spec 5 rule 3: form parameters; a charset parameter does not change the media type',
          },
        },
        // The form's media type in other letter case: the same type (RFC 9110 8.3.1: type and subtype
        // are case-insensitive), though a guard that compares the header with the lower-case name as
        // it is written refuses it. Each mints a token: the capitals extended.
        ...(
          [
            ['form-type-capitalised', 'Application/x-www-form-urlencoded', false],
            ['form-type-capitals', 'APPLICATION/X-WWW-FORM-URLENCODED', true],
          ] as const
        ).map(([key, contentType, extended]): Made => ({
          operator: 'case',
          key,
          says: `form-encoded, typed ${contentType}`,
          apply: (t) => ({ ...t, contentType }),
          expect: {
            checks: [{ clause: 'token.endpoint', outcome: accepted }],
            source: 'spec 5 rule 3: form parameters; a media type is case-insensitive (RFC 9110 8.3.1)',
          },
          ...(extended ? { extended } : {}),
        })),
        {
          operator: 'case',
          key: 'json-type-capitalised',
          says: 'as a JSON body typed Application/JSON',
          apply: (t) => ({ ...t, encoding: 'json', contentType: 'Application/JSON' }),
          expect: {
            checks: [{ clause: 'token.observed.json-request', outcome: accepted }],
            source: 'observed: the endpoint takes JSON too; a media type is case-insensitive (RFC 9110 8.3.1)',
          },
          extended: true,
        },
        // The same form request with the charset parameter naming another charset than UTF-8: its
        // parameters are ASCII, the same bytes in ISO-8859-1 and US-ASCII, so the request reads the
        // same (a charset parameter does not change the media type); a check that allows only the
        // charsets it lists (UTF-8) refuses it. Each mints a token: US-ASCII extended.
        ...(
          [
            ['form-charset-latin1', 'ISO-8859-1', false],
            ['form-charset-us-ascii', 'US-ASCII', true],
          ] as const
        ).map(([key, charset, extended]): Made => ({
          operator: 'extra-part',
          key,
          says: `form-encoded with charset=${charset} (its ASCII parameters the same bytes as in UTF-8)`,
          apply: (t) => ({ ...t, contentType: `application/x-www-form-urlencoded; charset=${charset}` }),
          expect: {
            checks: [{ clause: 'token.endpoint', outcome: accepted }],
            source: 'spec 5 rule 3: form parameters; a charset parameter does not change the media type, and ASCII reads alike in it',
          },
          ...(extended ? { extended: true } : {}),
        })),
        {
          operator: 'extra-part',
          key: 'scope-not-granted',
          says: 'with a scope parameter naming one the client is not granted',
          apply: (t) => ({ ...t, fields: [...t.fields, ['scope', 'delete:users']] }),
          expect: {
            checks: [{ clause: 'token.observed.granted-scopes', outcome: { kind: 'token-without-scope', scope: 'delete:users' } }],
            source: 'a token carries the scopes the client is granted (observed: its grant), whatever the request asks',
          },
        },
        // Near misses of a granted scope: cut short at its last "_" or ":" (a prefix), or with a
        // suffix. None is granted, so no token carries it, though a grant matched by prefix or by
        // start puts it in the token (in capitals: scope-in-capitals below).
        ...nearGrantedScopes().map(({ key, says, scope }): Made => ({
          operator: 'near-value',
          key,
          says: `with a scope parameter naming ${says} (${scope})`,
          apply: (t) => ({ ...t, fields: [...t.fields, ['scope', scope]] }),
          extended: true,
          expect: {
            checks: [{ clause: 'token.observed.granted-scopes', outcome: { kind: 'token-without-scope', scope } }],
            source:
              'a token carries the scopes the client is granted (observed: its grant), and a scope is compared as it is (RFC 6749 3.3)',
          },
        })),
        {
          // Two granted scopes in a form field: its space is written + (application/x-www-form-urlencoded).
          operator: 'extra-part',
          key: 'scope-granted',
          says: `with a scope parameter naming two scopes the client is granted (${GRANTED_PAIR}, the space form-encoded as +)`,
          apply: (t) => ({ ...t, fields: [...t.fields, ['scope', GRANTED_PAIR]] }),
          extended: true,
          expect: {
            checks: [
              { clause: 'token.endpoint', outcome: accepted },
              { clause: 'token.scopes', outcome: { kind: 'token-with-scopes', scopes: GRANTED_PAIR.split(' ') } },
            ],
            source:
              'spec 5 rule 3: form parameters (a + in a form value is a space); the token carries its scopes, so a token narrowed to these two carries both',
          },
        },
        {
          // One granted scope and one not: RFC 6749 3.3 lets the server issue fewer scopes than
          // asked, never one outside the grant, so a check that one asked scope is granted (some()
          // for every()) hands out both.
          operator: 'extra-part',
          key: 'scope-partly-granted',
          says: `with a scope parameter naming a granted scope and one the client is not granted (${GRANTED_PAIR.split(' ')[0]!} delete:users)`,
          apply: (t) => ({ ...t, fields: [...t.fields, ['scope', `${GRANTED_PAIR.split(' ')[0]!} delete:users`]] }),
          extended: true,
          expect: {
            checks: [{ clause: 'token.observed.granted-scopes', outcome: { kind: 'token-without-scope', scope: 'delete:users' } }],
            source:
              'a token carries the scopes the client is granted (observed: its grant), whatever the request asks, and some of it granted grants no more',
          },
        },
        {
          // The same two apart by two spaces (an empty scope-token between them): a loop over the
          // split list that stops at the first empty item (break for continue) checks none after it.
          operator: 'whitespace',
          key: 'scope-partly-granted-two-spaces',
          says: `with a scope parameter naming a granted scope and, two spaces after it, one the client is not granted (${GRANTED_PAIR.split(' ')[0]!}  delete:users)`,
          apply: (t) => ({ ...t, fields: [...t.fields, ['scope', `${GRANTED_PAIR.split(' ')[0]!}  delete:users`]] }),
          extended: true,
          expect: {
            checks: [{ clause: 'token.observed.granted-scopes', outcome: { kind: 'token-without-scope', scope: 'delete:users' } }],
            source: 'a token carries the scopes the client is granted (observed: its grant), however the list is spaced',
          },
        },
        {
          operator: 'case',
          key: 'scope-in-capitals',
          says: `with a scope parameter naming a granted scope in capitals (${GRANTED_PAIR.split(' ')[0]!.toUpperCase()})`,
          apply: (t) => ({ ...t, fields: [...t.fields, ['scope', GRANTED_PAIR.split(' ')[0]!.toUpperCase()]] }),
          extended: true,
          expect: {
            checks: [
              {
                clause: 'scopes.catalogue',
                outcome: { kind: 'token-without-scope', scope: GRANTED_PAIR.split(' ')[0]!.toUpperCase() },
              },
              {
                clause: 'token.observed.granted-scopes',
                outcome: { kind: 'token-without-scope', scope: GRANTED_PAIR.split(' ')[0]!.toUpperCase() },
              },
            ],
            source:
              'spec 5: a scope is one of the catalogue, written action:resource in lower case; no client is granted it (observed: a grant matched without case puts it in the token)',
          },
        },
        {
          operator: 'extra-part',
          key: 'unknown-parameter',
          says: 'with a parameter the endpoint does not know, written first',
          // Accepted, it mints a token: a tenant's are counted, so against test doubles (or --matrix full).
          // Written first, so that a parser keeping only so many parameters drops one the request needs.
          extended: true,
          apply: (t) => ({ ...t, fields: [['x_conformance_suite', 'ignored'], ...t.fields] }),
          expect: {
            checks: [{ clause: 'token.endpoint', outcome: accepted }],
            source: 'spec 5 rule 3: a client-credentials request; the server ignores parameters it does not recognise (RFC 6749 3.2)',
          },
        },
        {
          operator: 'encoding',
          key: 'json',
          says: 'as a JSON body',
          apply: (t) => ({ ...t, encoding: 'json' }),
          expect: {
            checks: [{ clause: 'token.observed.json-request', outcome: accepted }],
            source: 'observed: the endpoint takes JSON too',
          },
        },
        // The JSON body typed with a charset parameter (application/json; charset=utf-8, as many
        // clients send it): the same media type (RFC 9110 8.3.1), though a check that compares the
        // whole Content-Type with "application/json" refuses it.
        {
          operator: 'encoding',
          key: 'json-charset',
          says: 'as a JSON body typed application/json; charset=utf-8',
          apply: (t) => ({ ...t, encoding: 'json', contentType: 'application/json; charset=utf-8' }),
          expect: {
            checks: [{ clause: 'token.observed.json-request', outcome: accepted }],
            source: 'observed: the endpoint takes JSON too; a charset parameter does not change the media type (RFC 9110 8.3.1)',
          },
          extended: true,
        },
        // The JSON body with its slashes escaped ("https:\/\/..."), as PHP's json_encode writes
        // them: the same JSON text once decoded (RFC 8259 7), though a reader that takes values out
        // with a pattern instead of a decoder keeps the escapes and reads another audience.
        {
          operator: 'encoding',
          key: 'json-escaped-slashes',
          says: 'as a JSON body with every "/" written as the escape "\\/"',
          apply: (t) => ({ ...t, encoding: 'json', escapedSlashes: true }),
          expect: {
            checks: [{ clause: 'token.observed.json-request', outcome: accepted }],
            source: 'observed: the endpoint takes JSON too; "\\/" is "/" in a JSON string (RFC 8259 7)',
          },
          extended: true,
        },
        // The JSON body with JSON whitespace around its text (RFC 8259 2): a line feed after it (what
        // curl --data-binary @file leaves), a space before it. The same JSON text, though a server
        // that sniffs the text for JSON by its first and last characters (without a trim) refuses it.
        // Accepted, it mints a token: against test doubles (or --matrix full).
        {
          operator: 'whitespace',
          key: 'json-trailing-line-feed',
          says: 'as a JSON body followed by a line feed',
          apply: (t) => ({ ...t, encoding: 'json', surrounded: { before: '', after: '\n' } }),
          extended: true,
          expect: {
            checks: [{ clause: 'token.observed.json-request', outcome: accepted }],
            source: 'observed: the endpoint takes JSON too; RFC 8259 2: whitespace is allowed after the value',
          },
        },
        {
          operator: 'whitespace',
          key: 'json-leading-space',
          says: 'as a JSON body after a space',
          apply: (t) => ({ ...t, encoding: 'json', surrounded: { before: ' ', after: '' } }),
          extended: true,
          expect: {
            checks: [{ clause: 'token.observed.json-request', outcome: accepted }],
            source: 'observed: the endpoint takes JSON too; RFC 8259 2: whitespace is allowed before the value',
          },
        },
        {
          // A client assertion that proves nothing beside the right secret: two methods in one
          // request (RFC 6749 2.3); a server that prefers the secret when both come takes it for one.
          operator: 'duplicate',
          key: 'assertion-beside-secret',
          says: 'with a client assertion (not a signed one) beside the client secret (two methods)',
          apply: (t) => ({
            ...t,
            fields: [
              ...t.fields,
              ['client_assertion_type', observed.tokens.client_assertion.type],
              ['client_assertion', 'eyJhbGciOiJSUzI1NiJ9.eyJpc3MiOiJhbm90aGVyIn0.c2ln'],
            ],
          }),
          extended: true,
          expect: {
            checks: refusedWith('token.observed.request-rules'),
            source: 'RFC 6749 2.3: the client MUST NOT use more than one authentication method in a request; RFC 7523 2.2',
          },
        },
        {
          operator: 'extra-part',
          key: 'json-in-list',
          says: 'as a JSON body, the object inside a list of one',
          apply: (t) => ({ ...t, encoding: 'json', wrapped: 'list' }),
          extended: true,
          expect: {
            checks: refusedWith('token.observed.request-rules'),
            source:
              "observed: a JSON body is an object of the parameters; a list holding one is no object (a reader that takes a batch's first element takes it for one)",
          },
        },
        {
          operator: 'encoding',
          key: 'json-encoded-twice',
          says: "as a JSON body that is a string holding the object's JSON text (encoded twice)",
          apply: (t) => ({ ...t, encoding: 'json', wrapped: 'json-text' }),
          extended: true,
          expect: {
            checks: refusedWith('token.observed.request-rules'),
            source:
              'observed: a JSON body is an object of the parameters; a string is none, though a reader that parses a string it meets again takes it for one',
          },
        },
        ...emptyScopes(),
        ...scopeSeparators(),
        ...mislabelledBodies(),
      ],
    },
  ];
}

/** The token endpoint's matrix: every element of its request, varied by every operator that applies. */
export function tokenRequestRows(): TokenMatrixRow[] {
  return requestVariants().flatMap(({ element, variants }) =>
    variants.flatMap(({ expect, ...variant }) => {
      const row = { id: `token ${element.id} ${variant.operator}:${variant.key}`, element, variant, expectation: expect };
      return [row, ...encodedTwins(row)];
    }),
  );
}

/**
 * The other forms of the valid token request a refusal is made in again, each one the endpoint
 * takes, and how a title says so: a JSON body, the form's media type with its charset parameter,
 * and the path without its trailing slash (the real service's own, observed).
 */
export const TOKEN_TWINS = {
  json: { says: 'the request a JSON body', edit: (t: TokenRequestTemplate): TokenRequestTemplate => ({ ...t, encoding: 'json' }) },
  'form-charset': {
    says: 'the form typed with charset=UTF-8',
    edit: (t: TokenRequestTemplate): TokenRequestTemplate => ({ ...t, encoding: 'form-charset' }),
  },
  unslashed: {
    says: 'the path without its trailing slash',
    edit: (t: TokenRequestTemplate): TokenRequestTemplate => (t.path.at(-1) === '' ? { ...t, path: t.path.slice(0, -1) } : t),
  },
} as const;
export type TokenTwin = keyof typeof TOKEN_TWINS;

/**
 * A refusal of the form request that runs on tenants, made again in each other form the endpoint
 * takes (TOKEN_TWINS): the same defect, the same expectation, each standing on the valid request in
 * that form. Extended: a run of the test doubles checks them. A request binder, filter or gateway
 * template chosen by the media type or the path checks what it reads on one path only.
 */
function encodedTwins(row: TokenMatrixRow): TokenMatrixRow[] {
  if (row.variant.extended || !expectsRefusal(row.expectation)) return [];
  return (Object.keys(TOKEN_TWINS) as TokenTwin[]).map((twin) => ({
    id: `${row.id} ${twin}`,
    element: row.element,
    variant: {
      ...row.variant,
      says: `${row.variant.says} (${TOKEN_TWINS[twin].says})`,
      apply: (t, c) => row.variant.apply(TOKEN_TWINS[twin].edit(t), c),
      extended: true,
      twin,
    },
    expectation: row.expectation,
  }));
}
