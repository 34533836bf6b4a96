// Deterministic values of the matrix's variations: exact lengths, the other letter case, one
// character escaped, an id of the right shape that names nothing. The same on every run and every
// seed (generators/ holds the random ones, which --num-runs adds on top).
import { alphabetOf, observed, type IdentifierShape } from '../observed.ts';
import type { OperatorId } from './operators.ts';

/** One character in the other letter case (itself where it has none). */
export function otherCase(character: string): string {
  return character === character.toUpperCase() ? character.toLowerCase() : character.toUpperCase();
}

/** Every letter of a text in the other case. */
export function swapCase(text: string): string {
  return [...text].map(otherCase).join('');
}

/** The observed shape an id has: the one whose prefix it carries, if any (client ids have none). */
export function shapeOfId(id: string): IdentifierShape | undefined {
  return Object.values(observed.identifiers)
    .filter((entry): entry is IdentifierShape => typeof entry === 'object')
    .find((shape) => shape.prefix !== '' && id.startsWith(shape.prefix));
}

/** The alphabet an id is written in: its shape's, else the alphanumerics. */
export function alphabetOfId(id: string): string {
  const shape = shapeOfId(id);
  return shape ? alphabetOf(shape) : observed.identifiers.alphanumeric_alphabet;
}

/**
 * The id with the last letter of its random part that has another case in its alphabet put in
 * that case: the same shape and length, another id (base58 has neither I, O nor l).
 */
export function idInOtherCase(id: string): string | undefined {
  const alphabet = alphabetOfId(id);
  const start = shapeOfId(id)?.prefix.length ?? 0;
  for (let at = id.length - 1; at >= start; at -= 1) {
    const flipped = otherCase(id[at]!);
    if (flipped !== id[at] && alphabet.includes(flipped)) return id.slice(0, at) + flipped + id.slice(at + 1);
  }
  return undefined;
}

/** The id with its last character replaced by the next one of its alphabet: well formed, and no existing resource's. */
export function unknownIdLike(id: string): string {
  const alphabet = alphabetOfId(id);
  const last = id[id.length - 1] ?? alphabet[0]!;
  const next = alphabet[(alphabet.indexOf(last) + 1) % alphabet.length]!;
  return id.slice(0, -1) + next;
}

/**
 * The id with the last two adjacent distinct characters of its random part swapped: the same
 * characters, shape and length, another id, which names nothing (a lookup by a checksum or a
 * sorted key of the characters, or a typo-forgiving match, finds the existing one).
 */
export function idWithAdjacentTransposed(id: string): string | undefined {
  const start = shapeOfId(id)?.prefix.length ?? 0;
  for (let at = id.length - 2; at >= start; at -= 1) {
    if (id[at] !== id[at + 1]) return `${id.slice(0, at)}${id[at + 1]}${id[at]}${id.slice(at + 2)}`;
  }
  return undefined;
}

/**
 * The id with the last character of its prefix, the separator ("_" of "evt_"), replaced by "-":
 * the same length and random part, no id of its shape (a prefix checked without its separator
 * takes it for one). Undefined for an id of no prefixed shape.
 */
export function idWithPrefixSeparatorReplaced(id: string): string | undefined {
  const prefix = shapeOfId(id)?.prefix;
  if (!prefix) return undefined;
  const separator = prefix.slice(-1);
  return `${prefix.slice(0, -1)}${separator === '-' ? '.' : '-'}${id.slice(prefix.length)}`;
}

/**
 * The id with the last letter of its prefix written twice ("ac_" as "acc_", "evt_" as "evtt_"):
 * the random part kept, no id of its shape, though a prefix removed as a set of characters
 * (Python's lstrip("ac_")) or by a pattern with a quantifier (^ac+_) leaves the random part to
 * look up. Undefined for an id of no prefixed shape.
 */
export function idWithPrefixLetterDoubled(id: string): string | undefined {
  const prefix = shapeOfId(id)?.prefix;
  if (!prefix || prefix.length < 2) return undefined;
  const letters = prefix.slice(0, -1);
  return `${letters}${letters.slice(-1)}${prefix.slice(-1)}${id.slice(prefix.length)}`;
}

/** The id with its prefix in capitals (EVT_ for evt_), its random part as it is; undefined for an id of no prefixed shape. */
export function idWithPrefixInCapitals(id: string): string | undefined {
  const prefix = shapeOfId(id)?.prefix;
  return prefix && prefix !== prefix.toUpperCase() ? `${prefix.toUpperCase()}${id.slice(prefix.length)}` : undefined;
}

/**
 * The id's random part behind another kind's prefix ("evt_<random>" as "est_<random>"), of the
 * same length where a prefix of it has one: no id of its own kind, though a lookup that cuts the
 * prefix off by its length, whatever it says, finds the resource. Undefined for an id of no
 * prefixed shape.
 */
export function idWithAnotherKindsPrefix(id: string): string | undefined {
  const own = shapeOfId(id);
  if (!own?.prefix) return undefined;
  const others = Object.values(observed.identifiers)
    .filter((entry): entry is IdentifierShape => typeof entry === 'object')
    .filter((shape) => shape.prefix !== '' && shape.prefix !== own.prefix);
  const other = others.find((shape) => shape.prefix.length === own.prefix.length) ?? others[0];
  return other ? `${other.prefix}${id.slice(own.prefix.length)}` : undefined;
}

/** Java's String.hashCode: s[0]*31^(n-1) + ... + s[n-1], in 32 bits. */
export function javaHashCode(text: string): number {
  let hash = 0;
  for (let i = 0; i < text.length; i += 1) hash = (Math.imul(hash, 31) + text.charCodeAt(i)) | 0;
  return hash;
}

/**
 * The id with two neighbouring characters of its random part changed so that Java's
 * String.hashCode (s[0]*31^(n-1) + ... + s[n-1]) is unchanged: the first up by one, the second down
 * by 31 ("Aa" and "BB" collide), both still letters or digits. Another id, though a lookup keyed by
 * the hash alone finds the resource. The last such pair; undefined where the id has none.
 */
export function idWithHashCollision(id: string): string | undefined {
  const alphanumeric = (code: number) => /[A-Za-z0-9]/.test(String.fromCharCode(code));
  const start = shapeOfId(id)?.prefix.length ?? 0;
  for (let i = id.length - 2; i >= start; i -= 1) {
    const [first, second] = [id.charCodeAt(i) + 1, id.charCodeAt(i + 1) - 31];
    if (alphanumeric(id.charCodeAt(i)) && alphanumeric(first) && alphanumeric(second))
      return `${id.slice(0, i)}${String.fromCharCode(first, second)}${id.slice(i + 2)}`;
  }
  return undefined;
}

/** The distance from a printable ASCII character to its fullwidth form (U+FF01 to U+FF5E), which NFKC maps back. */
export const FULLWIDTH_OFFSET = 0xfee0;

/**
 * `text` with its first character matching `which` (or its last, `fromEnd`) written in its
 * fullwidth form: another string, which NFKC or a width-folding helper maps back onto `text`.
 * Unchanged where no character matches.
 */
export function withFullwidth(text: string, which: RegExp, fromEnd = false): string {
  const indexes = [...text].map((_, at) => at);
  const at = (fromEnd ? indexes.reverse() : indexes).find((i) => which.test(text[i]!));
  if (at === undefined) return text;
  return `${text.slice(0, at)}${String.fromCharCode(text.charCodeAt(at) + FULLWIDTH_OFFSET)}${text.slice(at + 1)}`;
}

/** The classic confusables (o, O and 0; l, I and 1): the characters base58 leaves out, and their twins. */
const LOOK_ALIKES: Record<string, string> = { o: '0', O: '0', '0': 'o', l: '1', I: '1', '1': 'l' };

/**
 * The id with the last character of its random part that has a look-alike replaced by it (o by 0,
 * l by 1...): another id, which names nothing. An id without one gets a 0 for its last character,
 * so that the value is of the same kind (outside base58, or inside another alphabet) whichever id
 * the target file names.
 */
export function idWithLookAlike(id: string): string {
  const start = shapeOfId(id)?.prefix.length ?? 0;
  for (let at = id.length - 1; at >= start; at -= 1) {
    const twin = LOOK_ALIKES[id[at]!];
    if (twin !== undefined) return id.slice(0, at) + twin + id.slice(at + 1);
  }
  return `${id.slice(0, -1)}0`;
}

/** The id cut or extended (with characters of its alphabet) to exactly `length` characters. */
export function idOfLength(id: string, length: number): string {
  if (length <= id.length) return id.slice(0, length);
  const alphabet = alphabetOfId(id);
  let out = id;
  for (let i = 0; out.length < length; i += 1) out += alphabet[(i * 7 + 3) % alphabet.length]!;
  return out;
}

/** The text with its character at `at` written as the percent-escapes of its UTF-8 bytes ("a" -> "%61"). */
export function withCharacterEscapedAt(text: string, at: number): string {
  const character = String.fromCodePoint(text.codePointAt(at)!);
  const escaped = [...new TextEncoder().encode(character)].map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`).join('');
  return `${text.slice(0, at)}${escaped}${text.slice(at + character.length)}`;
}

/** The id with its first character after the prefix written as a percent-escape ("est_A..." -> "est_%41..."). */
export function idWithEscapedCharacter(id: string): string {
  return withCharacterEscapedAt(id, shapeOfId(id)?.prefix.length ?? 0);
}

/** RFC 3986 2.3's unreserved characters: where a gap of an alphabet has one, it stands for the gap. */
const UNRESERVED = /[A-Za-z0-9\-._~]/;

/**
 * The characters just outside an alphabet that a character class written one range too wide takes
 * (base58 written [1-9A-z] runs through [ \ ] ^ _ ` and keeps I, O and l; [0-9] for [1-9] takes 0):
 * one of each gap between its characters in code-point order (an unreserved one where the gap has
 * one), and the characters just before its first and just after its last.
 */
export function charactersBesideAlphabet(alphabet: string): string[] {
  const codes = [...new Set([...alphabet].map((c) => c.charCodeAt(0)))].sort((a, b) => a - b);
  const gaps: string[] = [];
  for (let i = 1; i < codes.length; i += 1) {
    const gap = Array.from({ length: codes[i]! - codes[i - 1]! - 1 }, (_, k) => String.fromCharCode(codes[i - 1]! + 1 + k));
    if (gap.length > 0) gaps.push(gap.find((c) => UNRESERVED.test(c)) ?? gap[0]!);
  }
  const ends = [codes[0]! - 1, codes[codes.length - 1]! + 1]
    .filter((code) => code > 0x20 && code < 0x7f)
    .map((code) => String.fromCharCode(code));
  return [...new Set([ends[0]!, ...gaps, ...ends.slice(1)])].sort();
}

/** The id with its last character replaced by `character`. */
export function idWithLastCharacter(id: string, character: string): string {
  return `${id.slice(0, -1)}${character}`;
}

/** An id of another resource's shape, of the same length: right length, wrong prefix. */
export function idOfAnotherKind(id: string): string {
  const own = shapeOfId(id);
  const other = Object.values(observed.identifiers)
    .filter((entry): entry is IdentifierShape => typeof entry === 'object')
    .find((shape) => shape.prefix !== '' && shape !== own && shape.prefix.length <= id.length);
  if (!other) return `x${id.slice(1)}`;
  return idOfLength(other.prefix, id.length);
}

/** "a.io": the shortest dotted host name. */
const SHORTEST_DOTTED = 4;
const LONGEST_LABEL = 63;
const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

/**
 * A host name of exactly `length` characters, shaped like one, so that only its length can be the
 * reason a target refuses it: labels of at most 63 characters joined by dots, ending in "io";
 * under four characters a single label of letters.
 */
export function hostNameOfLength(length: number): string {
  if (!Number.isInteger(length) || length < 1) throw new RangeError(`a host name cannot have ${length} characters`);
  if (length < SHORTEST_DOTTED) return LETTERS.slice(0, length);
  const labels: string[] = [];
  let remaining = length - 'io'.length - 1;
  for (let n = 0; remaining > 0; n += 1) {
    const size = remaining > LONGEST_LABEL ? Math.min(LONGEST_LABEL, remaining - 2) : remaining;
    labels.push(labelOf(size, n));
    remaining -= size + (remaining > size ? 1 : 0);
  }
  return [...labels, 'io'].join('.');
}

/** A punycode label (münchen), valid IDNA: a host of them is shorter in its Unicode form. */
const PUNYCODE_LABEL = 'xn--mnchen-3ya';

/** A host name of exactly `length` characters made of punycode labels, then a label of letters to make up the length. */
export function punycodeHostNameOfLength(length: number): string {
  const labels: string[] = [];
  while ((labels.length + 1) * (PUNYCODE_LABEL.length + 1) + 'io'.length <= length) labels.push(PUNYCODE_LABEL);
  return [...labels, hostNameOfLength(length - labels.length * (PUNYCODE_LABEL.length + 1))].join('.');
}

function labelOf(size: number, n: number): string {
  let label = '';
  for (let i = 0; label.length < size; i += 1) label += LETTERS[(i + n) % LETTERS.length]!;
  return label;
}

/**
 * The same URL written so that it names the same origin once normalised, but is another string:
 * the scheme's default port spelled out where it names none, else its port with a leading zero.
 * A URL claim or audience is compared as an exact string (RFC 7519 2, StringOrURI); a comparison
 * that parses and normalises URLs first takes it for the right one.
 */
export function sameOriginSpelledOtherwise(url: string): string {
  const parsed = /^(\w+:\/\/)([^/:?#]+)(:\d+)?(.*)$/.exec(url);
  if (!parsed) return `${url}#`;
  const [, scheme, host, port, rest] = parsed;
  const written = port === undefined ? `:${scheme!.startsWith('https') ? 443 : 80}` : `:0${port.slice(1)}`;
  return `${scheme}${host}${written}${rest}`;
}

/**
 * The smallest changes to a URL (an issuer, an audience) that a lenient comparison forgives; each
 * operator's. One `withPath` changes a URL's path beyond "/": an element whose URL is an origin and
 * "/" alone (the issuer) leaves it out, where it would be another row's URL.
 */
export const urlNearMisses: ReadonlyArray<{
  key: string;
  says: string;
  change: (url: string) => string;
  operator: 'truncate' | 'near-value' | 'extra-part' | 'encoding' | 'case';
  withPath?: true;
}> = [
  {
    key: 'trailing-slash',
    says: 'without its trailing slash',
    change: (url) => (url.endsWith('/') ? url.slice(0, -1) : `${url}/`),
    operator: 'truncate',
  },
  {
    key: 'path-segment',
    says: 'with a path segment added',
    change: (url) => `${url.endsWith('/') ? url : `${url}/`}other/`,
    operator: 'extra-part',
  },
  // A segment between its origin and its path (https://host/other/api/v2/): both ends of the URL
  // are right, so a check of its start and its end apart, or one that strips a gateway's stage
  // segment, takes it for the right one.
  {
    key: 'segment-before-path',
    says: 'with a path segment inserted between its origin and its path',
    change: (url) => url.replace(/^(\w+:\/\/[^/?#]*)\//, '$1/other/'),
    operator: 'extra-part',
    withPath: true,
  },
  { key: 'host-prefix', says: 'with its host name prefixed', change: (url) => url.replace('://', '://other-'), operator: 'near-value' },
  { key: 'http', says: 'over http instead of https', change: (url) => url.replace(/^https:/, 'http:'), operator: 'near-value' },
  // Without its scheme (host/path): another string, though a helper that prefixes "https://" to a
  // value without one, so that configuration written as a host works, takes it for the right one.
  {
    key: 'scheme-absent',
    says: 'without its scheme (its host and path alone)',
    change: (url) => url.replace(/^\w+:\/\//, ''),
    operator: 'truncate',
  },
  { key: 'query', says: 'with a query string added', change: (url) => `${url}?x=1`, operator: 'extra-part' },
  // A fragment names a part of the same resource to a browser, and is no part of what a server is
  // sent, so a check that parses the URL and compares its origin and path takes it for the right
  // one; another string all the same.
  { key: 'fragment', says: 'with a fragment added (#x)', change: (url) => `${url}#x`, operator: 'extra-part' },
  // An empty query or fragment ("?" or "#" alone): another string, though a URL parsed and written
  // back (Python's urlunparse(urlparse(u)), a serializer that drops empty components) is the
  // right one.
  { key: 'empty-query', says: 'with an empty query ("?" after it)', change: (url) => `${url}?`, operator: 'extra-part' },
  { key: 'empty-fragment', says: 'with an empty fragment ("#" after it)', change: (url) => `${url}#`, operator: 'extra-part' },
  // An empty port ("host:"): another string, though a URL parser (WHATWG's, RFC 3986's
  // normalisation) drops it and writes back the right one.
  {
    key: 'empty-port',
    says: 'with an empty port after its host ("host:")',
    change: (url) => url.replace(/^(\w+:\/\/[^/:?#]+)/, '$1:'),
    operator: 'encoding',
  },
  {
    key: 'port-spelled-out',
    says: 'naming the same origin with its port written out (the default port, or a leading zero)',
    change: sameOriginSpelledOtherwise,
    operator: 'encoding',
  },
  // Its host or its scheme in capitals, the rest as it is: other strings (RFC 7519 4.1.1 and 4.1.3
  // compare iss and aud as strings), though a URL type that keeps the host and the scheme as
  // case-insensitive strings (RFC 3986 3.1, 3.2.2; http4s' CIString, a normalising parser) compares
  // them equal.
  {
    key: 'host-capitals',
    says: 'with its host name in capitals, its path as it is',
    change: (url) => url.replace(/^(\w+:\/\/)([^/?#]+)/, (_all, scheme: string, host: string) => `${scheme}${host.toUpperCase()}`),
    operator: 'case',
  },
  {
    key: 'scheme-capitals',
    says: 'with its scheme in capitals (HTTPS://), the rest as it is',
    change: (url) => url.replace(/^(\w+)(:\/\/)/, (_all, scheme: string, rest: string) => `${scheme.toUpperCase()}${rest}`),
    operator: 'case',
  },
  // Its scheme's "//" written otherwise: left out (https:host/), one slash (https:/host/), two
  // backslashes (https:\\\\host/). Other strings, and no URL of RFC 3986 with an authority, though the
  // WHATWG URL parser repairs each for a special scheme and writes back the right one.
  {
    key: 'slashes-absent',
    says: 'without the "//" after its scheme (https:host/...)',
    change: (url) => url.replace(/^(\w+:)\/\//, '$1'),
    operator: 'truncate',
  },
  {
    key: 'one-slash',
    says: 'with one "/" after its scheme (https:/host/...)',
    change: (url) => url.replace(/^(\w+:)\/\//, '$1/'),
    operator: 'truncate',
  },
  {
    key: 'backslashes',
    says: 'with "\\\\" after its scheme instead of "//" (https:\\\\host/...)',
    change: (url) => url.replace(/^(\w+:)\/\//, '$1\\\\'),
    operator: 'encoding',
  },
  // Three spellings a URL parser reads as the same place, each another string (RFC 7519 compares
  // iss and aud as strings): a fully qualified host name, a user name before the host, a character
  // percent-encoded.
  {
    key: 'host-trailing-dot',
    says: 'with its host name fully qualified (a trailing dot)',
    change: (url) => url.replace(/^(\w+:\/\/[^/:?#]+)/, '$1.'),
    operator: 'near-value',
  },
  {
    key: 'userinfo',
    says: 'with a user name before its host (someone@)',
    change: (url) => url.replace('://', '://someone@'),
    operator: 'extra-part',
  },
  {
    key: 'percent-encoded-character',
    says: 'with one letter or digit written as its percent-encoding (%XX)',
    change: withAlphanumericPercentEncoded,
    operator: 'encoding',
  },
  // Two hosts that are other strings, and other names, though a lenient comparison takes them for
  // the right one: its dots written as the ideographic full stop, which a URL parser's IDNA mapping
  // (UTS 46) turns into dots; one of its dots replaced by a hyphen, which a pattern made of the
  // right URL without escaping its dots matches.
  {
    key: 'host-ideographic-full-stops',
    says: 'with the dots of its host name written as ideographic full stops (U+3002, which IDNA maps to ".")',
    change: (url) => withHostDots(url, (host) => (host.includes('.') ? host.replaceAll('.', '\u3002') : `${host}\u3002`)),
    operator: 'encoding',
  },
  {
    key: 'host-dot-replaced',
    says: 'with the first dot of its host name replaced by a hyphen (another host)',
    change: (url) => withHostDots(url, (host) => (host.includes('.') ? host.replace('.', '-') : `${host}-`)),
    operator: 'near-value',
  },
];

/**
 * The same host written in other letter case (RFC 3986 3.2.2: a host name is case-insensitive), each
 * the same name: a request carrying one in its Host header names the same server, and the same
 * tenant. A host with no letter (an IP address) has none.
 */
export const hostCaseSpellings: ReadonlyArray<{
  key: 'host-capitals' | 'host-labels-capitalised';
  says: string;
  spell: (host: string) => string;
}> = [
  { key: 'host-capitals', says: 'in capitals', spell: (host) => host.toUpperCase() },
  {
    key: 'host-labels-capitalised',
    says: 'with the first letter of each label in capitals',
    spell: (host) => host.toLowerCase().replace(/(^|\.)([a-z])/g, (_all, dot: string, letter: string) => `${dot}${letter.toUpperCase()}`),
  },
];

/** The URL with its host name (after any user name, before any port) changed. */
function withHostDots(url: string, change: (host: string) => string): string {
  return url.replace(/^(\w+:\/\/(?:[^/@?#]*@)?)([^/:?#]+)/, (_all, start: string, host: string) => `${start}${change(host)}`);
}

/**
 * The URL with its last letter or digit after the host's slash written %XX (/api/v2/ as
 * /api/v%32/), or, with no such character in its path, the first letter of its host.
 */
export function withAlphanumericPercentEncoded(url: string): string {
  const origin = /^\w+:\/\/[^/?#]*/.exec(url)?.[0] ?? '';
  const path = url.slice(origin.length);
  const encode = (c: string) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`;
  const last = path.search(/[A-Za-z0-9][^A-Za-z0-9]*$/);
  if (last >= 0) return `${origin}${path.slice(0, last)}${encode(path[last]!)}${path.slice(last + 1)}`;
  const host = origin.search(/(?<=:\/\/(?:[^@/]*@)?)[A-Za-z0-9]/);
  return host >= 0 ? `${origin.slice(0, host)}${encode(origin[host]!)}${origin.slice(host + 1)}${path}` : `${url}%2F`;
}

/**
 * A name's near names, each another name: in capitals, in camelCase (where it has underscores),
 * with a "[]" suffix (a list to a qs-style parser). A reader that folds case, aliases camelCase or
 * takes "name[]" for "name" reads each as the name itself; `rename` gives undefined where the
 * near name would be the name.
 */
export const nameNearMisses: ReadonlyArray<{
  key: 'name-capitals' | 'name-camel-case' | 'name-kebab-case' | 'name-dotted' | 'name-spaced' | 'name-bracketed' | 'name-operator-eq';
  says: string;
  operator: OperatorId;
  rename: (name: string) => string | undefined;
}> = [
  {
    key: 'name-capitals',
    says: 'in capitals',
    operator: 'case',
    rename: (name) => (name.toUpperCase() === name ? undefined : name.toUpperCase()),
  },
  {
    key: 'name-camel-case',
    says: 'in camelCase',
    operator: 'case',
    rename: (name) => (/_[a-z]/.test(name) ? name.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase()) : undefined),
  },
  // A naming policy of a binder (kebab-case, as .NET's JsonNamingPolicy.KebabCaseLower or a relaxed
  // binder that ignores separators), or PHP, which turns "." and " " in a form parameter's name into
  // "_" before the script reads $_POST.
  {
    key: 'name-kebab-case',
    says: 'in kebab-case',
    operator: 'case',
    rename: (name) => (name.includes('_') ? name.replaceAll('_', '-') : undefined),
  },
  {
    key: 'name-dotted',
    says: 'with "." for each "_"',
    operator: 'near-value',
    rename: (name) => (name.includes('_') ? name.replaceAll('_', '.') : undefined),
  },
  {
    key: 'name-spaced',
    says: 'with a space for each "_"',
    operator: 'near-value',
    rename: (name) => (name.includes('_') ? name.replaceAll('_', ' ') : undefined),
  },
  { key: 'name-bracketed', says: 'with "[]" after it, a list to a qs-style parser', operator: 'extra-part', rename: (name) => `${name}[]` },
  // A qs-style parser (Express's extended urlencoded) reads "name[$eq]=v" as {"name": {"$eq": "v"}},
  // which a document store queried with the request's values as they came matches as "v".
  {
    key: 'name-operator-eq',
    says: 'with "[$eq]" after it, a query operator object to a qs-style parser',
    operator: 'extra-part',
    rename: (name) => `${name}[$eq]`,
  },
];

/**
 * Characters outside ASCII that a case mapping takes onto an ASCII letter: "İ" (U+0130) lower-cases
 * to "i" under a Turkish locale, "ı" (U+0131) and "ſ" (U+017F) upper-case to "I" and "S", the Kelvin
 * sign (U+212A) lower-cases to "k". Each is another character, so a text holding one is another
 * text, though a comparison that folds case first (equalsIgnoreCase, a locale's toLowerCase) takes it
 * for the ASCII one.
 */
export const CASE_MAPPING_TWINS: ReadonlyArray<{ key: string; letter: string; twin: string; says: string }> = [
  {
    key: 'dotted-capital-i',
    letter: 'i',
    twin: '\u0130',
    says: 'its first "i" written "İ" (U+0130, lower-cased to "i" in a Turkish locale)',
  },
  { key: 'dotless-i', letter: 'i', twin: '\u0131', says: 'its first "i" written "ı" (U+0131, upper-cased to "I")' },
  { key: 'long-s', letter: 's', twin: '\u017f', says: 'its first "s" written "ſ" (U+017F, upper-cased to "S")' },
  { key: 'kelvin-sign', letter: 'k', twin: '\u212a', says: 'its first "k" written as the Kelvin sign (U+212A, lower-cased to "k")' },
];

/** `text` with its first `letter` (either case) written `twin`, or undefined where it has none. */
export function withCaseMappingTwin(text: string, letter: string, twin: string, from = 0): string | undefined {
  // By UTF-16 index, as the slices are (the letter is ASCII, never half of a surrogate pair).
  for (let at = from; at < text.length; at += 1) {
    if (text[at]!.toLowerCase() === letter) return `${text.slice(0, at)}${twin}${text.slice(at + 1)}`;
  }
  return undefined;
}
