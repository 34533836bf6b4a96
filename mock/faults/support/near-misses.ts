// The lenient comparisons of the near-miss faults, in one place: each says when a sent value passes
// for the right one although it differs (by letter case, a trailing slash, a host name prefixed or fully qualified, a user name, a
// percent-encoding, a host mapped by IDNA, a dot read as a pattern's any character).
// The families choose which value they compare; these only say how leniently.
import { domainToASCII } from 'node:url';

/** Equal once both are lower-cased (a case-insensitive collation or comparison). */
export function sameIgnoringCase(sent: string, right: string): boolean {
  return sent.toLowerCase() === right.toLowerCase();
}

/** Equal once trailing slashes are trimmed from both (URLs normalised before they are compared). */
export function sameWithoutTrailingSlash(sent: string, right: string): boolean {
  return withoutTrailingSlash(sent) === withoutTrailingSlash(right);
}

/**
 * Ends with the right URL without its scheme (a check meant for custom domains): the right value
 * with its host name prefixed passes, https://other-<tenant domain>/ for https://<tenant domain>/.
 */
export function endsWithItsHost(sent: string, right: string): boolean {
  return sent.endsWith(right.replace(/^https?:\/\//, ''));
}

/** Equal once the sent URL's host loses a fully qualified name's trailing dot (host names made canonical). */
export function sameWithoutHostDot(sent: string, right: string): boolean {
  return sent.replace(/^(\w+:\/\/[^/:?#]+)\./, '$1') === right;
}

/** Equal as a URL parser's origin and path, which leave out a user name before the host (one there is). */
export function sameWithoutUserinfo(sent: string, right: string): boolean {
  return sent.includes('@') && URL.canParse(sent) && `${new URL(sent).origin}${new URL(sent).pathname}` === right;
}

/** Equal once the sent value is percent-decoded (decoded once more than it should be); a value that does not decode is not. */
export function samePercentDecoded(sent: string, right: string): boolean {
  try {
    return sent !== right && decodeURIComponent(sent) === right;
  } catch {
    return false;
  }
}

/**
 * Equal once the sent URL's host is mapped by IDNA (domainToASCII, for internationalised custom
 * domains): an ideographic full stop (U+3002) in the host passes for a dot. Differs from the right one.
 */
export function sameOnceHostMapped(sent: string, right: string): boolean {
  const parsed = /^(\w+:\/\/)([^/:?#]+)(.*)$/su.exec(sent);
  if (!parsed || sent === right || /^[\x20-\x7e]*$/.test(parsed[2]!)) return false;
  const host = domainToASCII(parsed[2]!);
  return host !== '' && `${parsed[1]}${host}${parsed[3]}` === right;
}

/** Matched by a pattern made of the right URL without escaping it: each "." of it matches any character. */
export function matchesAsUnescapedPattern(sent: string, right: string): boolean {
  return sent !== right && new RegExp(`^${right}$`).test(sent);
}

/**
 * The same once an API gateway's path mapping strips the first segment of the path (a stage name,
 * https://host/prod/api/v2/ as https://host/api/v2/), where the path has two or more segments.
 */
export function sameWithoutStageSegment(sent: string, right: string): boolean {
  return sent !== right && sent.replace(/^(\w+:\/\/[^/?#]*)\/[^/?#]+(?=\/)/, '$1') === right;
}

function withoutTrailingSlash(url: string): string {
  return url.replace(/\/+$/, '');
}

/** Java's String.hashCode, shared with the matrix's hash-collision variation. */
export { javaHashCode } from '../../../specs/matrix/values.ts';
