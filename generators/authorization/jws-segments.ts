// Pieces of compact JWS tokens: a realistic header and payload (base64url JSON in the shape the
// real service issues), a signature-sized run of base64url, and garbage segments that do not
// decode to JSON at all.
import fc from 'fast-check';
import { observed } from '../../specs/index.ts';
import { clientId } from '../identifiers/client-id.ts';

const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
/** An RS256 signature is 256 bytes with a 2048-bit key. */
const SIGNATURE_BYTES = 256;

export function base64urlOfJson(value: unknown): string {
  return Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');
}

/** Whether a segment, base64url-decoded, parses as JSON (of any kind). */
export function decodesToJson(segment: string): boolean {
  try {
    JSON.parse(Buffer.from(segment, 'base64url').toString('utf8'));
    return true;
  } catch {
    return false;
  }
}

export function jwsHeaderSegment(): fc.Arbitrary<string> {
  const kid = fc.string({ unit: fc.constantFrom(...BASE64URL), minLength: 8, maxLength: 32 });
  return kid.map(function headerWithKid(keyId) {
    return base64urlOfJson({ alg: observed.tokens.alg, typ: observed.tokens.typ, kid: keyId });
  });
}

export function unsignedHeaderSegment(): fc.Arbitrary<string> {
  return fc.constant(base64urlOfJson({ alg: 'none', typ: observed.tokens.typ }));
}

export function jwsPayloadSegment(): fc.Arbitrary<string> {
  const claims = fc.record(
    {
      client: clientId(),
      iat: fc.integer({ min: 1_600_000_000, max: 2_000_000_000 }),
      scope: fc.constantFrom('update:event_deliveries', ''),
    },
    { noNullPrototype: true },
  );
  return claims.map(function payloadOf({ client, iat, scope }) {
    return base64urlOfJson({
      iss: 'https://tenant.example.com/',
      sub: `${client}${observed.tokens.subject_suffix}`,
      aud: 'https://tenant.example.com/api/v2/',
      azp: client,
      iat,
      exp: iat + observed.tokens.expires_in,
      scope,
      gty: observed.tokens.gty,
    });
  });
}

export function signatureSegment(): fc.Arbitrary<string> {
  return fc.uint8Array({ minLength: SIGNATURE_BYTES, maxLength: SIGNATURE_BYTES }).map(function base64urlOf(bytes) {
    return Buffer.from(bytes).toString('base64url');
  });
}

/** base64url characters that do not decode to JSON: a part of a token no verifier can read. */
export function garbageSegment(): fc.Arbitrary<string> {
  return fc.string({ unit: fc.constantFrom(...BASE64URL), minLength: 1, maxLength: 40 }).filter(function isNotJson(segment) {
    return !decodesToJson(segment);
  });
}

/** A compact JWS of the shape the real service issues, with a signature nobody made. */
export function jwsShapedToken(): fc.Arbitrary<string> {
  return fc.tuple(jwsHeaderSegment(), jwsPayloadSegment(), signatureSegment()).map(joinedWithDots);
}

export function joinedWithDots(segments: readonly string[]): string {
  return segments.join('.');
}
