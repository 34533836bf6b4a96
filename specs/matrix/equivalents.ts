// Text equivalents: the closed list of ways to write another string that a lenient layer folds
// back onto the one it came from. Each is another string, so wherever the spec or the reference
// compares a text as it is (an id, a scope, a client id or secret, an issuer, a kid), a target that
// takes one for the original has let a near miss through: NFKC normalisation, a case mapping
// beyond ASCII, a sanitiser deleting invisible characters, a Unicode-aware trim, a confusable
// skeleton, a lossy encoding, a hash in place of the text.
//
// The list is one, and every element exactly compared (EXACT_TEXT_ELEMENTS) is varied by each of
// its entries that applies to the element's value: a project test holds each family to it, so that a transform added here reaches every such element instead of the one whose
// fault showed the gap. Families that had a row of an equivalence before this list name it by
// their own key; an entry's aliases are those keys.
import { CASE_MAPPING_TWINS, FULLWIDTH_OFFSET, idWithHashCollision, javaHashCode, shapeOfId, withCaseMappingTwin } from './values.ts';
import type { OperationCard } from '../cards/card.ts';
import { observed } from '../observed.ts';
import type { OperatorId } from './operators.ts';
import { canonicalContext, paramValue } from './template.ts';

export interface TextEquivalent {
  key: string;
  /** Read after "with": what the value becomes. */
  says: string;
  /** The lenient layer that takes it for the original. */
  foldedBy: string;
  /** That layer, as a function: a comparison of `fold(a)` and `fold(b)` takes the variation for the original. */
  fold: (text: string) => string;
  /**
   * The narrowest such layer: it maps back the characters this entry writes and nothing else
   * (`undo(make(text)) === text`), so that a fault built on it is caught by this entry's rows alone.
   * None where the original cannot be read back from the variation alone: a case mapping (which
   * case the letter had), a hash collision.
   */
  undo?: (text: string) => string;
  operator: OperatorId;
  /** Keys of families' rows of this same equivalence, made before this list. */
  aliases: readonly string[];
  /**
   * The text made another string at or after `from` (an id's prefix kept), or undefined where
   * the text has nothing this entry changes (no "ss" for the sharp s, no digit for a superscript).
   */
  make: (text: string, from?: number) => string | undefined;
}

/** The superscript digits, which NFKC maps onto the digits. */
const SUPERSCRIPT_DIGITS = '\u2070\u00b9\u00b2\u00b3\u2074\u2075\u2076\u2077\u2078\u2079';

/** Latin letters and the Cyrillic letters drawn the same (UTS #39 confusables). */
export const CYRILLIC_TWINS: Readonly<Record<string, string>> = {
  a: '\u0430',
  c: '\u0441',
  e: '\u0435',
  o: '\u043e',
  p: '\u0440',
  x: '\u0445',
  y: '\u0443',
  A: '\u0410',
  B: '\u0412',
  C: '\u0421',
  E: '\u0415',
  H: '\u041d',
  K: '\u041a',
  M: '\u041c',
  O: '\u041e',
  P: '\u0420',
  T: '\u0422',
  X: '\u0425',
};

/** The Latin letter each Cyrillic twin is drawn as (a confusable skeleton, UTS #39). */
const LATIN_OF_CYRILLIC: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(CYRILLIC_TWINS).map(([latin, cyrillic]) => [cyrillic, latin]),
);

/** The text with each Cyrillic twin read as its Latin letter (a confusable skeleton, UTS #39, restricted to these letters). */
const skeleton = (text: string): string => [...text].map((c) => LATIN_OF_CYRILLIC[c] ?? c).join('');

/** `text` with its first character at or after `from` matching `which` replaced by `replace(character)`. */
function replaceFirst(
  text: string,
  from: number,
  which: RegExp | ((character: string) => boolean),
  replace: (character: string) => string,
): string | undefined {
  const matches = typeof which === 'function' ? which : (character: string) => which.test(character);
  for (let at = from; at < text.length; at += 1) {
    if (matches(text[at]!)) return `${text.slice(0, at)}${replace(text[at]!)}${text.slice(at + 1)}`;
  }
  return undefined;
}

/** `text` with `inserted` after its first character at or after `from` (inside it, not at an end a trim reaches). */
function insertedInside(text: string, from: number, inserted: string): string | undefined {
  const at = Math.min(from + 1, text.length);
  return text.length === 0 ? undefined : `${text.slice(0, at)}${inserted}${text.slice(at)}`;
}

/** The mathematical bold letters (U+1D400 capitals, U+1D41A small), which NFKC maps onto A-Z and a-z. */
function mathematicalBold(letter: string): string {
  const code = letter.charCodeAt(0);
  return String.fromCodePoint(code <= 0x5a ? 0x1d400 + code - 0x41 : 0x1d41a + code - 0x61);
}

const nfkc = (text: string): string => text.normalize('NFKC');
/** The text with its accents removed: NFD, then its combining marks deleted (what a collation ignoring accents compares). */
const withoutAccents = (text: string): string => text.normalize('NFD').replace(/\p{M}/gu, '');
/** Java's String.trim: every character up to U+0020 off both ends (control characters too). */
function javaTrim(text: string): string {
  let [start, end] = [0, text.length];
  while (start < end && text.charCodeAt(start) <= 0x20) start += 1;
  while (end > start && text.charCodeAt(end - 1) <= 0x20) end -= 1;
  return text.slice(start, end);
}
/** Deletes Unicode's default-ignorable characters (zero-width space, soft hyphen, word joiner, BOM...), as a sanitiser of pasted text does. */
const withoutIgnorables = (text: string): string => text.replace(/\p{Default_Ignorable_Code_Point}/gu, '');
/** How each case mapping folds: "İ" to "i" under a Turkish locale, "ı" and "ſ" upper-cased, the Kelvin sign lower-cased. */
const CASE_FOLDS: Readonly<Record<string, (text: string) => string>> = {
  'dotted-capital-i': (text) => text.toLocaleLowerCase('tr'),
  'dotless-i': (text) => text.toUpperCase(),
  'long-s': (text) => text.toUpperCase(),
  'kelvin-sign': (text) => text.toLowerCase(),
};

/**
 * A character replaced by the one `offset` above it (256: the same low byte; 128: the high bit
 * set): equal to it only once the text is written in an encoding that keeps `offset - 1` of it.
 */
function lossyTwin(key: string, offset: 0x100 | 0x80, twin: string, encoding: string): TextEquivalent {
  const kept = (code: number) => code & (offset - 1);
  return {
    key,
    says: `its first character replaced by ${twin}`,
    foldedBy: `a comparison of the text written as ${encoding}`,
    fold: (text) => String.fromCharCode(...[...text].map((c) => kept(c.charCodeAt(0)))),
    // Only the characters the twin is made of: at or above the offset, below twice it.
    undo: (text) =>
      [...text]
        .map((c) => (c.charCodeAt(0) >= offset && c.charCodeAt(0) < 2 * offset ? String.fromCharCode(kept(c.charCodeAt(0))) : c))
        .join(''),
    operator: 'encoding',
    aliases: [],
    make: (text, from = 0) =>
      replaceFirst(
        text,
        from,
        (c) => c.charCodeAt(0) < offset,
        (c) => String.fromCharCode(c.charCodeAt(0) + offset),
      ),
  };
}

/** A character appended, that `trimmed` takes off again: what a layer that trims the value reads as the original. */
function appended(key: string, says: string, character: string, trimmedBy: string, aliases: readonly string[]): TextEquivalent {
  return {
    key,
    says,
    foldedBy: trimmedBy,
    fold: (text) => text.trim(),
    undo: (text) => (text.endsWith(character) ? text.slice(0, -character.length) : text),
    operator: 'whitespace',
    aliases,
    make: (text) => `${text}${character}`,
  };
}

/** The value between two quotes, that a reader of a quoted string (JSON, a shell-like or OData parser) takes off. */
function quoted(key: string, quote: '"' | "'", readBy: string, aliases: readonly string[]): TextEquivalent {
  const off = (text: string) => (text.length >= 2 && text.startsWith(quote) && text.endsWith(quote) ? text.slice(1, -1) : text);
  return {
    key,
    says: `it in ${quote === '"' ? 'double' : 'single'} quotes`,
    foldedBy: readBy,
    fold: off,
    undo: off,
    operator: 'extra-part',
    aliases,
    make: (text) => `${quote}${text}${quote}`,
  };
}

/** The text percent-decoded where it decodes, else as it is: what a layer that decodes a value never encoded reads. */
function percentDecoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * The lenient readings of plain ASCII a layer applies to a value it takes for encoded or quoted text:
 * a trim of ASCII white space, a query-string decoder (a "+" is a space), a percent-decoder, a reader
 * of quoted strings, a parser that ends the value at ";" (matrix or media-type parameters).
 */
const asciiReadings: readonly TextEquivalent[] = [
  appended('tab-after', 'a tab after it', '\t', 'an ASCII trim (strip, TrimSpace, String.trim)', ['trailing-tab']),
  appended('line-feed-after', 'a line feed after it', '\n', 'an ASCII trim, or a reader of lines (chomp, readLine)', ['line-feed']),
  appended('carriage-return-after', 'a carriage return after it', '\r', 'an ASCII trim, or a reader of CRLF lines (chomp)', []),
  {
    key: 'plus-after',
    says: 'a "+" after it',
    foldedBy: 'a query-string decoder ("+" is a space: unquote_plus, URLDecoder) followed by a trim',
    fold: (text) => text.replaceAll('+', ' ').trim(),
    undo: (text) => (text.endsWith('+') ? text.slice(0, -1) : text),
    operator: 'extra-part',
    aliases: [],
    make: (text) => `${text}+`,
  },
  {
    key: 'percent-encoded-character',
    says: 'its first letter or digit written as its percent-encoding (%XX)',
    foldedBy: 'a percent-decoder run on a value that was never encoded (decodeURIComponent, urldecode)',
    fold: percentDecoded,
    undo: percentDecoded,
    operator: 'encoding',
    aliases: ['percent-encoded'],
    make: (text, from = 0) =>
      replaceFirst(text, from, /[A-Za-z0-9]/, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`),
  },
  quoted('json-quoted', '"', 'a reader that takes the quotes off a quoted string (JSON.parse, a config or header parser)', [
    'double-quoted',
  ]),
  quoted('single-quoted', "'", 'a reader that takes single quotes off (a SQL literal, a shell-like parser)', []),
  {
    key: 'semicolon-parameter',
    says: 'a parameter after it (";v=1")',
    foldedBy: 'a parser that ends the value at ";" (matrix parameters, media-type parameters, a legacy form parser)',
    // No narrower undo: the families' rows of it before this list wrote other parameters (";x").
    fold: (text) => text.split(';')[0]!,
    operator: 'extra-part',
    aliases: ['matrix-parameter', 'semicolon-after', 'trailing-semicolon'],
    make: (text) => `${text};v=1`,
  },
];

const caseMapping = CASE_MAPPING_TWINS.map(({ key, letter, twin, says }): TextEquivalent => ({
  key,
  says,
  foldedBy: 'a comparison that folds case first (a locale-dependent toLowerCase, equalsIgnoreCase, casefold)',
  fold: CASE_FOLDS[key]!,
  operator: 'encoding',
  aliases: key === 'kelvin-sign' ? ['kelvin', 'compatibility-kelvin'] : [],
  make: (text, from = 0) => withCaseMappingTwin(text, letter, twin, from),
}));

export const TEXT_EQUIVALENTS: readonly TextEquivalent[] = [
  {
    key: 'fullwidth',
    says: 'its first letter or digit in its fullwidth form',
    foldedBy: 'NFKC normalisation, or a width-folding helper',
    fold: nfkc,
    undo: (text) => text.replace(/[\uff01-\uff5e]/g, (c) => String.fromCharCode(c.charCodeAt(0) - FULLWIDTH_OFFSET)),
    operator: 'encoding',
    aliases: ['fullwidth-first-letter', 'fullwidth-letter', 'full-width-letter', 'compatibility-fullwidth'],
    make: (text, from = 0) => replaceFirst(text, from, /[A-Za-z0-9]/, (c) => String.fromCharCode(c.charCodeAt(0) + FULLWIDTH_OFFSET)),
  },
  ...asciiReadings,
  {
    key: 'mathematical-bold',
    says: 'its first letter written as a mathematical bold letter (U+1D400 block, outside the BMP)',
    foldedBy: 'NFKC normalisation',
    fold: nfkc,
    undo: (text) => text.replace(/[\u{1d400}-\u{1d433}]/gu, nfkc),
    operator: 'encoding',
    aliases: [],
    make: (text, from = 0) => replaceFirst(text, from, /[A-Za-z]/, mathematicalBold),
  },
  {
    key: 'superscript-digit',
    says: 'its first digit written as a superscript',
    foldedBy: 'NFKC normalisation',
    fold: nfkc,
    undo: (text) => text.replace(/[\u2070\u00b9\u00b2\u00b3\u2074-\u2079]/g, nfkc),
    operator: 'encoding',
    aliases: ['superscript', 'compatibility-superscript'],
    make: (text, from = 0) => replaceFirst(text, from, /[0-9]/, (digit) => SUPERSCRIPT_DIGITS[Number(digit)]!),
  },
  {
    key: 'ligature',
    says: 'its first "fi", "fl" or "ff" written as a ligature (U+FB01, U+FB02, U+FB00)',
    foldedBy: 'NFKC normalisation',
    fold: nfkc,
    undo: (text) => text.replace(/[\ufb00-\ufb02]/g, nfkc),
    operator: 'encoding',
    aliases: ['compatibility-ligature'],
    make: (text, from = 0) => {
      const at = text.slice(from).search(/fi|fl|ff/);
      if (at < 0) return undefined;
      const start = from + at;
      const pair = text.slice(start, start + 2) as 'fi' | 'fl' | 'ff';
      return `${text.slice(0, start)}${{ fi: '\ufb01', fl: '\ufb02', ff: '\ufb00' }[pair]}${text.slice(start + 2)}`;
    },
  },
  ...caseMapping,
  {
    key: 'sharp-s',
    says: 'its first "ss" written "ß" (U+00DF, which full case folding and toUpperCase make "ss" and "SS")',
    foldedBy: 'a comparison by full case folding (casefold, toUpperCase on both sides)',
    fold: (text) => text.toUpperCase(),
    undo: (text) => text.replaceAll('\u00df', 'ss'),
    operator: 'encoding',
    aliases: [],
    make: (text, from = 0) => {
      const at = text.indexOf('ss', from);
      return at < 0 ? undefined : `${text.slice(0, at)}\u00df${text.slice(at + 2)}`;
    },
  },
  {
    key: 'accented-letter',
    says: 'its first vowel written with an acute accent ("á" for "a")',
    foldedBy: 'a collation or normaliser that ignores accents (ICU at primary strength, NFD with the combining marks removed)',
    fold: withoutAccents,
    undo: (text) => text.replace(/[\u00e1\u00e9\u00ed\u00f3\u00fa\u00c1\u00c9\u00cd\u00d3\u00da]/g, withoutAccents),
    operator: 'encoding',
    aliases: ['accented'],
    make: (text, from = 0) => replaceFirst(text, from, /[aeiouAEIOU]/, (vowel) => `${vowel}\u0301`.normalize('NFC')),
  },
  {
    key: 'cyrillic-look-alike',
    says: 'its last letter that has a Cyrillic twin written as that twin (a as U+0430)',
    foldedBy: 'a comparison of confusable skeletons (UTS #39, a guard against look-alike names)',
    fold: skeleton,
    undo: skeleton,
    operator: 'encoding',
    aliases: [],
    make: (text, from = 0) => {
      for (let at = text.length - 1; at >= from; at -= 1) {
        const twin = CYRILLIC_TWINS[text[at]!];
        if (twin !== undefined) return `${text.slice(0, at)}${twin}${text.slice(at + 1)}`;
      }
      return undefined;
    },
  },
  {
    key: 'zero-width-space',
    says: 'a zero-width space (U+200B) inside it',
    foldedBy: 'a sanitiser that deletes invisible characters (pasted text)',
    fold: withoutIgnorables,
    undo: (text) => text.replaceAll('\u200b', ''),
    operator: 'extra-part',
    aliases: ['zero-width-space-inside'],
    make: (text, from = 0) => insertedInside(text, from, '\u200b'),
  },
  {
    key: 'soft-hyphen',
    says: 'a soft hyphen (U+00AD) inside it',
    foldedBy: 'a sanitiser, or IDNA mapping, that deletes default-ignorable characters',
    fold: withoutIgnorables,
    undo: (text) => text.replaceAll('\u00ad', ''),
    operator: 'extra-part',
    aliases: [],
    make: (text, from = 0) => insertedInside(text, from, '\u00ad'),
  },
  {
    key: 'word-joiner',
    says: 'a word joiner (U+2060) inside it',
    foldedBy: 'a sanitiser that deletes default-ignorable characters',
    fold: withoutIgnorables,
    undo: (text) => text.replaceAll('\u2060', ''),
    operator: 'extra-part',
    aliases: [],
    make: (text, from = 0) => insertedInside(text, from, '\u2060'),
  },
  {
    key: 'underscore-inside',
    says: 'an underscore inside it (after its first character)',
    foldedBy: "a comparison by an identifier rule that ignores underscores (Nim's), or a key normaliser that strips them",
    fold: (text) => text.replaceAll('_', ''),
    operator: 'extra-part',
    aliases: [],
    make: (text, from = 0) => insertedInside(text, from, '_'),
  },
  {
    key: 'byte-order-mark',
    says: 'a byte order mark (U+FEFF) before it',
    foldedBy: "a Unicode-aware trim (JavaScript's trim, a reader that drops a BOM)",
    fold: (text) => text.trim(),
    undo: (text) => text.replace(/^\ufeff/, ''),
    operator: 'extra-part',
    aliases: ['leading-bom'],
    make: (text) => `\ufeff${text}`,
  },
  {
    key: 'no-break-space-after',
    says: 'a no-break space (U+00A0) after it',
    foldedBy: "a Unicode-aware trim (JavaScript's and .NET's Trim, Java's strip)",
    fold: (text) => text.trim(),
    undo: (text) => text.replace(/\u00a0$/, ''),
    operator: 'whitespace',
    aliases: [],
    make: (text) => `${text}\u00a0`,
  },
  {
    key: 'unit-separator-after',
    says: 'a unit separator control character (U+001F) after it',
    foldedBy: "a trim of every character up to U+0020 (Java's String.trim), or Python's str.strip",
    fold: javaTrim,
    undo: (text) => (text.endsWith('\u001f') ? text.slice(0, -1) : text),
    operator: 'whitespace',
    aliases: [],
    make: (text) => `${text}\u001f`,
  },
  lossyTwin(
    'low-byte-twin',
    0x100,
    'the character 256 above it (the same low byte: equal only written as latin1)',
    'latin1 (each character kept to its low byte)',
  ),
  lossyTwin(
    'high-bit-twin',
    0x80,
    'the character 128 above it (equal only with the high bit cleared, as 7-bit ASCII)',
    '7-bit ASCII (the high bit cleared)',
  ),
  {
    key: 'hash-collision',
    says: 'two neighbouring characters changed so that its Java String.hashCode is the same (as "Aa" and "BB")',
    foldedBy: 'a comparison of hash codes',
    fold: (text) => String(javaHashCode(text)),
    operator: 'near-value',
    aliases: [],
    make: (text, from = 0) => {
      const tail = idWithHashCollision(text.slice(from));
      return tail === undefined ? undefined : `${text.slice(0, from)}${tail}`;
    },
  },
];

/** A kid of the shape the service's keys have (a JWK thumbprint, base64url). */
const KID_SAMPLE = 'q2Xk8sPZ0vJw3iYb7Lc5Rn1Tu9Hd4Ge6Mf_-aQoWxE';
/** A client secret of the shape the service's have (base64url, 48 characters and more). */
const SECRET_SAMPLE = 'Zq7Lk2vT9iRw4sXb8NcY1oHd5uJe3GmPaKfQ6tWn0yB-_hVx';
const TENANT = 'https://tenant.example.com/';
const globalClient = (): string => canonicalContext.clients.global!;

/**
 * The elements whose value the spec or the reference compares exactly, by the id their rows carry
 * (a scope token's ids start "token.scope."), each with a sample of its value in the canonical
 * request: which entries apply to an element is judged on it, and where a target's value has
 * nothing an entry changes, the sample's variation stands in.
 */
export const EXACT_TEXT_ELEMENTS: ReadonlyArray<{
  id: RegExp;
  says: string;
  sample: (card: OperationCard | undefined, id: string) => string;
}> = [
  {
    id: /^path\.\{(id|event_id)\}$/,
    says: "a path id (varied past its kind's prefix)",
    sample: (card, id) => paramValue(card!, id.slice('path.{'.length, -1), canonicalContext),
  },
  { id: /^token\.header\.alg$/, says: 'the JOSE header alg', sample: () => observed.tokens.alg },
  { id: /^token\.header\.kid$/, says: 'the JOSE header kid', sample: () => KID_SAMPLE },
  { id: /^token\.claims\.iss$/, says: 'the issuer (varied past its scheme)', sample: () => TENANT },
  { id: /^token\.claims\.aud$/, says: 'the audience (varied past its scheme)', sample: () => `${TENANT}api/v2/` },
  { id: /^token\.claims\.sub$/, says: 'the subject', sample: () => `${globalClient()}${observed.tokens.subject_suffix}` },
  { id: /^token\.claims\.azp$/, says: 'the authorised party', sample: globalClient },
  { id: /^token\.scope\./, says: "the operation's scope token in the scope claim", sample: (card) => card!.scope.value },
  { id: /^form\.client_id$/, says: 'the token request client_id', sample: globalClient },
  { id: /^form\.client_secret$/, says: 'the token request client_secret', sample: () => SECRET_SAMPLE },
  { id: /^form\.grant_type$/, says: 'the token request grant_type', sample: () => 'client_credentials' },
  { id: /^form\.audience$/, says: 'the token request audience (varied past its scheme)', sample: () => `${TENANT}api/v2/` },
];

/** Where a text's varied part starts: past a URL's scheme ("https://"), past an id's prefix ("evt_"), else at its start. */
export function variedFrom(text: string): number {
  const scheme = /^[a-z][a-z0-9+.-]*:\/\//i.exec(text);
  return scheme ? scheme[0].length : (shapeOfId(text)?.prefix.length ?? 0);
}

/** The sample of an exactly compared element's value, or undefined for an element of no such kind. */
export function exactTextSample(id: string, card?: OperationCard): string | undefined {
  return EXACT_TEXT_ELEMENTS.find((element) => element.id.test(id))?.sample(card, id);
}

/** The entries of the list that change an exactly compared element's sample: those it must have rows of. */
export function equivalentsOf(id: string, card?: OperationCard): TextEquivalent[] {
  const sample = exactTextSample(id, card);
  if (sample === undefined) return [];
  return TEXT_EQUIVALENTS.filter((entry) => {
    const made = entry.make(sample, variedFrom(sample));
    return made !== undefined && made !== sample;
  });
}

/** Whether a family's rows of an element (by their keys) hold an entry of the list. */
export function hasEquivalent(keys: Iterable<string>, entry: TextEquivalent): boolean {
  const have = new Set(keys);
  return have.has(entry.key) || entry.aliases.some((alias) => have.has(alias));
}

/**
 * The entries of the list an exactly compared element has no row of yet (by key or alias), each
 * with `make` made total: where a target's value has nothing the entry changes, the sample's
 * variation stands in. None for an element of no such kind.
 */
export function equivalentsFor(
  present: readonly string[],
  id: string,
  card?: OperationCard,
): Array<TextEquivalent & { always: (text: string) => string }> {
  const sample = exactTextSample(id, card)!;
  return equivalentsOf(id, card)
    .filter((entry) => !hasEquivalent(present, entry))
    .map((entry) => ({
      ...entry,
      always: (text: string) => entry.make(text, variedFrom(text)) ?? entry.make(sample, variedFrom(sample))!,
    }));
}

/** The entry of the list by its key. */
export function equivalent(key: string): TextEquivalent {
  const found = TEXT_EQUIVALENTS.find((entry) => entry.key === key);
  if (!found) throw new Error(`no text equivalent "${key}"`);
  return found;
}
