// The lenient comparisons of the near-miss faults, in one place: each says when a sent value passes
// for the right one although it differs (by letter case, a trailing slash, a host name prefixed).
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

function withoutTrailingSlash(url: string): string {
  return url.replace(/\/+$/, '');
}
