// Text a target controls reaches the console, summary.md, JUnit and every other report; a
// terminal or a viewer acts on some of it rather than showing it: escape sequences (clear the
// screen, set the title, hide what follows), a carriage return that overwrites a line with a fake
// verdict, a right-to-left override that reorders it. Every such character is shown escaped, as
// its JavaScript (and JSON) escape, so the text reads as the target sent it and does nothing.
// Line feeds and tabs stay: the reports' own lines use them, and what a target sends reaches the
// reports on one line already (harness/failure.ts).

// C0 controls but tab and line feed, DEL, C1 controls, the bidirectional marks and overrides, the
// line and paragraph separators, the noncharacters U+FFFE and U+FFFF, and lone surrogates.
const ACTIVE =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

export function printable(text: string): string {
  return text.replace(ACTIVE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
