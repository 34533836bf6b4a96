// Token verification: exp narrowed with Rust's `as u32` (a negative exp wraps to the year 2106), a
// signature read into a fixed 256-byte buffer (Zig's `sig[0..256]`, the bytes after it never looked
// at); and the observed rules: an issuer read through Ruby's Array(), so a list holding the issuer
// passes, and a kid compared as the bytes Java's URL-safe base64 decoder makes of it, so the kid
// with its "=" padding names the key. Each lets its near miss through; other tokens are judged as
// before.
import { alsoAccept, forgiveClaim } from '../../support/verifier-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { rs256SignatureVerifies, unverifiedParts } from '../support/signatures.ts';

const ALG = 'RS256';
/** The bytes of an RSA-2048 signature. */
const SIGNATURE_BYTES = 256;
/** Java's Base64.getUrlDecoder() alphabet: base64url, with the padding it also accepts. */
const URL_SAFE_WITH_PADDING = /^[A-Za-z0-9_-]+={0,2}$/;

export const tokenVerificationFaults = heldOutFamily([
  {
    id: 'ho22-exp-rust-as-u32-wrapped',
    clause: 'redeliver.errors.401.invalid-token',
    level: 'contract',
    bug: 'The claims decoded into an i64 and exp narrowed with Rust\'s `claims.exp as u32` for the expiry check (a 32-bit timestamp column), a cast that wraps: a token whose exp is -1 (read as 4294967295, the year 2106) is accepted instead of 401 for an expired token; "exp": 0 is still refused.',
    install: (app) =>
      forgiveClaim(app, (claims) =>
        typeof claims.exp === 'number' && Number.isInteger(claims.exp) && claims.exp < 0 && claims.exp >= -(2 ** 31)
          ? { ...claims, exp: claims.exp >>> 0 }
          : claims,
      ),
  },
  {
    id: 'ho22-signature-zig-fixed-buffer',
    clause: 'redeliver.errors.401.signature',
    level: 'contract',
    bug: "The signature decoded into a fixed 256-byte buffer by a Zig verifier (`var sig: [256]u8`, the decoder's output sliced to the key's size), so that bytes after the 256th are never looked at: a valid token whose signature has three zero bytes appended (259 bytes, no RS256 signature of a 2048-bit key) is accepted instead of 401; a signature with one of its 256 bytes changed is still refused.",
    install: (app) =>
      alsoAccept(app, async (token, { keys }) => {
        const parts = unverifiedParts(token);
        if (!parts || parts.header.alg !== ALG || parts.header.kid !== keys.kid) return undefined;
        const [header, payload, signature = ''] = token.split('.');
        const bytes = Buffer.from(signature, 'base64url');
        if (bytes.length <= SIGNATURE_BYTES) return undefined;
        const cut = `${header}.${payload}.${bytes.subarray(0, SIGNATURE_BYTES).toString('base64url')}`;
        return rs256SignatureVerifies(cut, keys.publicKey) ? parts.claims : undefined;
      }),
  },
  {
    id: 'ho22-iss-ruby-array-coerced',
    clause: 'auth.token.claims',
    level: 'observed',
    bug: 'The issuer checked in Ruby with Array(payload["iss"]).include?(issuer), the idiom written for aud, which takes a list as well as a string: a token whose iss is ["https://<tenant>/"], a list the service never issues, is accepted instead of 401; ["https://other-tenant.example.net/"] is still refused.',
    install: (app) =>
      forgiveClaim(app, (claims, { tenant }) => {
        if (!Array.isArray(claims.iss)) return claims;
        const issuer = claims.iss.find(
          (value): value is string => typeof value === 'string' && tenant.identityForIssuer(value) !== undefined,
        );
        return issuer === undefined ? claims : { ...claims, iss: issuer };
      }),
  },
  {
    id: 'ho22-kid-decoded-as-base64url-bytes',
    clause: 'auth.token.header',
    level: 'observed',
    bug: "Keys indexed by the bytes of their RFC 7638 thumbprint and a token's kid decoded with Java's Base64.getUrlDecoder() before the lookup, a decoder that also takes the padding: a token signed with the tenant's key whose kid is the published kid followed by \"=\" (a kid no key has) is accepted instead of 401; the kid with one character changed is still refused.",
    install: (app) =>
      alsoAccept(app, async (token, { keys }) => {
        const parts = unverifiedParts(token);
        const kid = parts?.header.kid;
        if (!parts || parts.header.alg !== ALG || typeof kid !== 'string' || kid === keys.kid || !URL_SAFE_WITH_PADDING.test(kid))
          return undefined;
        if (!Buffer.from(kid, 'base64url').equals(Buffer.from(keys.kid, 'base64url'))) return undefined;
        return rs256SignatureVerifies(token, keys.publicKey) ? parts.claims : undefined;
      }),
  },
]);
