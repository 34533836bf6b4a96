// An existing id with one of its characters written as a percent-escape ("est_..." becomes
// "est%5F..."). Sent as a path parameter, the escape is itself escaped ("%255F"), so a target that
// decodes the path once sees an id with a "%" in it, which exists nowhere; only a server that
// decodes twice (a proxy and the application each) finds the existing id.
import fc from 'fast-check';

export function idWithEscapedCharacter(existing: string): fc.Arbitrary<string> {
  if (existing.length === 0) throw new RangeError('an empty id has no character to escape');
  return fc.nat({ max: existing.length - 1 }).map(escapedAt(existing));
}

function escapedAt(existing: string): (at: number) => string {
  return function escaped(at) {
    const code = existing.charCodeAt(at).toString(16).toUpperCase().padStart(2, '0');
    return `${existing.slice(0, at)}%${code}${existing.slice(at + 1)}`;
  };
}
