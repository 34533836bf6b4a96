// Checking an RS256 signature the way a hand-rolled or misconfigured verifier does: over the
// token's signing input with a given public key, and nothing else (no alg allow-list, no crit
// handling, no kid lookup). The held-out faults use it to accept tokens a JOSE library refuses.
import { KeyObject, verify } from 'node:crypto';
import type { CryptoKey } from 'jose';
import { decodeJws } from '../../../auth/bearer.ts';

/** Whether the token's third segment is an RSASSA-PKCS1-v1_5 SHA-256 signature of its first two by `key`. */
export function rs256SignatureVerifies(token: string, key: CryptoKey | KeyObject): boolean {
  const [header, payload, signature] = token.split('.');
  if (header === undefined || payload === undefined || !signature) return false;
  const publicKey = key instanceof KeyObject ? key : KeyObject.from(key);
  try {
    return verify('sha256', Buffer.from(`${header}.${payload}`), publicKey, Buffer.from(signature, 'base64url'));
  } catch {
    return false;
  }
}

/** The signed part of a compact JWS: header and payload, without the signature. */
export function signingInput(token: string): string {
  return token.split('.').slice(0, 2).join('.');
}

/** The token's JOSE header and claims, not verified. */
export function unverifiedParts(token: string): { header: Record<string, unknown>; claims: Record<string, unknown> } | undefined {
  const decoded = decodeJws(token);
  return decoded && { header: decoded.header, claims: decoded.payload };
}
