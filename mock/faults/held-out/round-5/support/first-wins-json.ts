// A JSON reader that keeps the first of a member name given twice in one object, as some streaming
// parsers and validating gateways do, where JSON.parse keeps the last (RFC 8259 leaves duplicate
// names to the implementation). It reads exactly the JSON that JSON.parse reads; anything else is
// undefined. Strings and numbers are handed to JSON.parse, so their reading is the standard one.

const WHITESPACE = /[ \t\n\r]*/y;
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
/** A string token: characters other than the quote and backslash, or escapes; JSON.parse refuses raw control characters in it. */
const STRING = /"(?:[^"\\]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/y;

class Reader {
  at = 0;
  constructor(readonly text: string) {}

  skip(): void {
    WHITESPACE.lastIndex = this.at;
    WHITESPACE.exec(this.text);
    this.at = WHITESPACE.lastIndex;
  }

  token(pattern: RegExp): string | undefined {
    pattern.lastIndex = this.at;
    const match = pattern.exec(this.text);
    if (!match) return undefined;
    this.at = pattern.lastIndex;
    return match[0];
  }

  literal(word: string): boolean {
    if (!this.text.startsWith(word, this.at)) return false;
    this.at += word.length;
    return true;
  }

  value(): unknown {
    this.skip();
    const c = this.text[this.at];
    if (c === '{') return this.object();
    if (c === '[') return this.array();
    if (c === '"') return this.string();
    if (this.literal('true')) return true;
    if (this.literal('false')) return false;
    if (this.literal('null')) return null;
    const number = this.token(NUMBER);
    if (number === undefined) throw new SyntaxError(`unexpected character at ${this.at}`);
    return Number(number);
  }

  string(): string {
    const text = this.token(STRING);
    if (text === undefined) throw new SyntaxError(`bad string at ${this.at}`);
    return JSON.parse(text) as string;
  }

  expect(c: string): void {
    this.skip();
    if (this.text[this.at] !== c) throw new SyntaxError(`expected ${c} at ${this.at}`);
    this.at += 1;
  }

  /** The next character after white space is `c` (and is taken). */
  next(c: string): boolean {
    this.skip();
    if (this.text[this.at] !== c) return false;
    this.at += 1;
    return true;
  }

  object(): Record<string, unknown> {
    this.expect('{');
    const object: Record<string, unknown> = {};
    if (this.next('}')) return object;
    do {
      this.skip();
      const name = this.string();
      this.expect(':');
      const value = this.value();
      // The first of a repeated name stays; defineProperty, so that "__proto__" is a name like any other.
      if (!Object.hasOwn(object, name))
        Object.defineProperty(object, name, { value, enumerable: true, writable: true, configurable: true });
    } while (this.next(','));
    this.expect('}');
    return object;
  }

  array(): unknown[] {
    this.expect('[');
    const array: unknown[] = [];
    if (this.next(']')) return array;
    do array.push(this.value());
    while (this.next(','));
    this.expect(']');
    return array;
  }
}

/** The JSON value of `text`, a repeated member name keeping its first value; undefined when it is not JSON. */
export function parseFirstWins(text: string): unknown {
  try {
    const reader = new Reader(text);
    const value = reader.value();
    reader.skip();
    return reader.at === text.length ? value : undefined;
  } catch {
    return undefined;
  }
}
