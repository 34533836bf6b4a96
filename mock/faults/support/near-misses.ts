// The lenient comparisons of the near-miss faults, in one place: each says when a sent value passes
// for the right one although it differs (by letter case, a trailing slash, a host name prefixed or fully qualified, a user name, a
// percent-encoding).
// The families choose which value they compare; these only say how leniently.

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

function withoutTrailingSlash(url: string): string {
  return url.replace(/\/+$/, '');
}
