// Reading a bearer credential: the Authorization header must be `Bearer <compact JWS>`
// (RFC 6750; the scheme name is case-insensitive), and the JWS segments must decode to JSON
// objects. Anything else is a malformed credential. Never throws, whatever the input. Also the aud
// claim read as a list, for the access token's verifier and the client assertion's alike.

/** header.payload.signature, base64url without padding; an empty signature is `alg: none`. */
const COMPACT_JWS = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;
const BEARER = /^Bearer +(\S+)$/i;

/** The token of a `Bearer <compact JWS>` header value, or undefined. */
export function bearerToken(authorization: string | undefined): string | undefined {
  const token = authorization === undefined ? undefined : BEARER.exec(authorization)?.[1];
  return token !== undefined && COMPACT_JWS.test(token) ? token : undefined;
}

export interface DecodedJws {
  header: Record<string, unknown>;
  payload: Record<string, unknown>;
}

/** The decoded header and payload of a compact JWS, not verified; undefined when not JSON objects. */
export function decodeJws(token: string): DecodedJws | undefined {
  const [header, payload] = token.split('.');
  const decodedHeader = jsonObjectOf(header);
  const decodedPayload = jsonObjectOf(payload);
  return decodedHeader && decodedPayload ? { header: decodedHeader, payload: decodedPayload } : undefined;
}

export function jsonObjectOf(segment: string | undefined): Record<string, unknown> | undefined {
  if (segment === undefined) return undefined;
  try {
    const value: unknown = JSON.parse(Buffer.from(segment, 'base64url').toString('utf8'));
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** The aud claim as a list (RFC 7519 4.1.3: one string or an array); anything else names no audience. */
export function audiencesOf(aud: unknown): readonly unknown[] {
  return typeof aud === 'string' ? [aud] : Array.isArray(aud) ? aud : [];
}
