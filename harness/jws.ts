// Signs a compact JWS with the target's own key for any JOSE header, even one no JOSE library
// would write (no alg, alg in lower case, a kid that is a number, an unknown critical parameter):
// the matrix's near-miss tokens are the target's valid token with one member changed and signed
// again, so that only that member can be why the target refuses it. The signature follows the
// header's alg where it names an RSA algorithm (RS256, RS384, RS512, PS256...), RS256 otherwise.
import { createPrivateKey, sign, constants, type KeyObject } from 'node:crypto';

const DIGESTS: Record<string, { digest: string; pss: boolean }> = {
  RS256: { digest: 'sha256', pss: false },
  RS384: { digest: 'sha384', pss: false },
  RS512: { digest: 'sha512', pss: false },
  PS256: { digest: 'sha256', pss: true },
  PS384: { digest: 'sha384', pss: true },
  PS512: { digest: 'sha512', pss: true },
  // Not JWA's: PKCS#1 v1.5 over SHA-1, for the near miss of a verifier that falls back to it.
  RS1: { digest: 'sha1', pss: false },
};

/** A segment of the JWS: the JSON of `value`, or `value` itself where it is already JSON text or bytes. */
const segment = (value: unknown) =>
  (Buffer.isBuffer(value) ? value : Buffer.from(typeof value === 'string' ? value : JSON.stringify(value))).toString('base64url');

/** A private key from the target file's JWK (JSON). */
export function privateKeyOf(jwk: string): KeyObject {
  return createPrivateKey({ key: JSON.parse(jwk) as Record<string, unknown>, format: 'jwk' });
}

/**
 * header.payload.signature, signed with `key` as the header's alg says (RS256 where it names none
 * known), or as `signedAs` says where given (the header unchanged); `claims` as JSON text is signed
 * as written (a member twice, which no object holds), as bytes too (a compressed payload).
 */
/**
 * A JWS whose signature is made over the header's segment, "." and the payload itself, not its
 * base64url (RFC 7797's signing input where "b64" is false); the payload segment is base64url as
 * in any compact JWS. A verifier that follows RFC 7515 (b64 not named by crit) finds it does not validate.
 */
export function signJwsOverUnencodedPayload(
  header: Record<string, unknown> | string,
  claims: Record<string, unknown> | string | Buffer,
  key: KeyObject,
  signedAs: unknown = typeof header === 'string' ? undefined : header.alg,
): string {
  const payload = typeof claims === 'string' || Buffer.isBuffer(claims) ? Buffer.from(claims) : Buffer.from(JSON.stringify(claims));
  const signature = signatureOf(Buffer.concat([Buffer.from(`${segment(header)}.`), payload]), key, signedAs);
  return `${segment(header)}.${payload.toString('base64url')}.${signature}`;
}

/** The base64url signature of `input` with `key`, as the algorithm `signedAs` makes it (RS256 for one it does not know). */
function signatureOf(input: Buffer, key: KeyObject, signedAs: unknown): string {
  const how = DIGESTS[typeof signedAs === 'string' ? signedAs : ''] ?? DIGESTS.RS256!;
  return sign(how.digest, input, {
    key,
    ...(how.pss ? { padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: constants.RSA_PSS_SALTLEN_DIGEST } : {}),
  }).toString('base64url');
}

export function signJws(
  header: Record<string, unknown> | string,
  claims: Record<string, unknown> | string | Buffer,
  key: KeyObject,
  signedAs: unknown = typeof header === 'string' ? undefined : header.alg,
): string {
  const input = `${segment(header)}.${segment(claims)}`;
  return `${input}.${signatureOf(Buffer.from(input), key, signedAs)}`;
}
