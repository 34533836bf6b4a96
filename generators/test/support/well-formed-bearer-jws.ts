// Whether an Authorization value is "Bearer" (any case, any run of spaces) and a compact JWS of
// three base64url segments whose header decodes to JSON: what a malformed value must never be.
const BEARER_JWS = /^bearer +([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)$/i;

export function isWellFormedBearerJws(value: string): boolean {
  const match = BEARER_JWS.exec(value);
  if (!match) return false;
  try {
    JSON.parse(Buffer.from(match[1]!, 'base64url').toString('utf8'));
    return true;
  } catch {
    return false;
  }
}

/** A field value of HTTP: visible ASCII, inner spaces and tabs, no white space at either end. */
export const HEADER_VALUE = /^[\x21-\x7e](?:[\x20-\x7e\t]*[\x21-\x7e])?$/;
