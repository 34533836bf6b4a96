// JSON read as a parser that keeps the first of a member given twice reads it (RFC 8259 4 leaves the
// choice to the parser; JSON.parse keeps the last). A small recursive descent over valid JSON: the
// faults that use it have checked the text with JSON.parse first.
const STRING = /"(?:[^"\\]|\\.)*"/y;
const NUMBER = /-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const LITERALS: Record<string, unknown> = { true: true, false: false, null: null };

export function parseKeepingFirst(text: string): unknown {
  let at = 0;
  const skip = () => {
    while (/\s/.test(text[at] ?? '')) at += 1;
  };
  const token = (pattern: RegExp): string => {
    pattern.lastIndex = at;
    const match = pattern.exec(text)![0];
    at += match.length;
    return match;
  };
  const value = (): unknown => {
    skip();
    const c = text[at];
    if (c === '"') return JSON.parse(token(STRING)) as string;
    if (c === '{' || c === '[') {
      at += 1;
      const object = c === '{';
      const out: Record<string, unknown> | unknown[] = object ? {} : [];
      for (skip(); text[at] !== (object ? '}' : ']'); skip()) {
        if (text[at] === ',') at += 1;
        if (!object) {
          (out as unknown[]).push(value());
          continue;
        }
        skip();
        const name = JSON.parse(token(STRING)) as string;
        skip();
        at += 1; // the colon
        const member = value();
        if (!Object.hasOwn(out, name)) Object.defineProperty(out, name, { value: member, enumerable: true, writable: true });
      }
      at += 1;
      return out;
    }
    const literal = Object.keys(LITERALS).find((word) => text.startsWith(word, at));
    if (literal !== undefined) {
      at += literal.length;
      return LITERALS[literal];
    }
    return Number(token(NUMBER));
  };
  return value();
}
