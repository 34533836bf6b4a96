// Token verification: an RSA check written from RFC 8017's arithmetic in Python (pow(s, e, n), no
// range check, so a signature plus the modulus verifies), jwt-go's VerifyAudience reading aud with a
// string type assertion (a list of audiences is read as none), the claims decoded by Go's
// json.Decoder (the first JSON value read, what follows never looked at); and the observed rules:
// keys imported into Web Crypto with the JWKS entry's algorithm and the header's alg read only to
// refuse "none", and MicroProfile JWT's mp.jwt.verify.token.age copied from a login's settings (a
// token older than an hour refused). Each changes the verdict on its near miss; other tokens are
// judged as before.
import { KeyObject, verify } from 'node:crypto';
import { observed } from '../../../../specs/index.ts';
import { jsonObjectOf } from '../../../auth/bearer.ts';
import type { Verification } from '../../../auth/verifier.ts';
import { alsoAccept, editVerifier, forgiveClaim } from '../../support/verifier-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { rs256SignatureVerifies } from '../support/signatures.ts';

type Claims = Record<string, unknown>;
const ALG = observed.tokens.alg;
const isObject = (value: unknown): value is Claims => value !== null && typeof value === 'object' && !Array.isArray(value);
const bigIntOf = (bytes: Buffer) => (bytes.length === 0 ? 0n : BigInt(`0x${bytes.toString('hex')}`));
/** mp.jwt.verify.token.age, in seconds, as the web login's configuration had it. */
const TOKEN_AGE_SECONDS = 3600;
const CLOCK_SKEW_MS = observed.tokens.clock_skew_seconds.value * 1000;

/**
 * The first JSON value of `text`, as Go's json.Decoder.Decode reads it: leading white space skipped,
 * one object read to its closing brace, and whatever follows never looked at. Undefined when the
 * text does not start with a complete object.
 */
function firstObjectOf(text: string): Claims | undefined {
  const start = text.search(/\S/);
  if (start < 0 || text[start] !== '{') return undefined;
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i += 1) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i += 1;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{' || c === '[') depth += 1;
    else if (c === '}' || c === ']') {
      depth -= 1;
      if (depth === 0) {
        try {
          const value: unknown = JSON.parse(text.slice(start, i + 1));
          return isObject(value) ? value : undefined;
        } catch {
          return undefined;
        }
      }
    }
  }
  return undefined;
}

export const tokenVerificationFaults = heldOutFamily([
  {
    id: 'ho24-signature-unreduced-python-pow',
    clause: 'redeliver.errors.401.signature',
    level: 'contract',
    bug: "An RS256 check written in Python from RFC 8017's arithmetic, m = pow(int.from_bytes(sig, 'big'), e, n) and the encoded message compared, without RSAVP1's range check (s < n) or the check that the signature is k octets: a valid token whose signature has the modulus added to it (s + n, 256 or 257 octets, no RS256 signature) is accepted instead of 401; the signature plus one is still refused.",
    install: (app) =>
      alsoAccept(app, async (token, { keys }) => {
        const [headerPart, payloadPart, signaturePart] = token.split('.');
        const header = jsonObjectOf(headerPart);
        if (!header || header.alg !== ALG || typeof header.kid !== 'string' || !payloadPart || !signaturePart) return undefined;
        const jwk = keys.jwks.keys.find((key) => key.kid === header.kid);
        if (!jwk) return undefined;
        const modulus = Buffer.from(jwk.n, 'base64url');
        const n = bigIntOf(modulus);
        const signature = Buffer.from(signaturePart, 'base64url');
        const s = bigIntOf(signature);
        // A signature of k octets below n is the library's to judge; pow() takes any other.
        if (signature.length === modulus.length && s < n) return undefined;
        const reduced = Buffer.from((s % n).toString(16).padStart(modulus.length * 2, '0'), 'hex');
        const publicKey = keys.publicKey instanceof KeyObject ? keys.publicKey : KeyObject.from(keys.publicKey);
        try {
          return verify('sha256', Buffer.from(`${headerPart}.${payloadPart}`), publicKey, reduced) ? jsonObjectOf(payloadPart) : undefined;
        } catch {
          return undefined;
        }
      }),
  },
  {
    id: 'ho24-aud-list-jwt-go-type-assertion',
    clause: 'redeliver.errors.401.invalid-token',
    level: 'contract',
    bug: 'A Go resource server on dgrijalva/jwt-go v3 that requires aud to be present (claims["aud"] != nil) and then calls MapClaims.VerifyAudience(audience, false), which reads aud with the type assertion m["aud"].(string): a list fails the assertion, reads as "" and passes as an audience not required (CVE-2020-26160), so a token whose aud is ["https://reports-api.example.com/"] is accepted instead of 401; the same audience as a string is still refused.',
    install: (app) =>
      forgiveClaim(app, (claims, { tenant }) => {
        if (!Array.isArray(claims.aud) || typeof claims.iss !== 'string') return claims;
        const identity = tenant.identityForIssuer(claims.iss);
        return identity ? { ...claims, aud: identity.audience } : claims;
      }),
  },
  {
    id: 'ho24-claims-trailing-data-go-decoder',
    clause: 'redeliver.errors.401.invalid-token',
    level: 'contract',
    bug: 'A Go service\'s own token middleware decoding the payload with json.NewDecoder(bytes.NewReader(payload)).Decode(&claims), which reads the first JSON value and never checks that the input ends there: a token signed with the tenant key whose payload is the claims followed by more text ({...}{"scope":"x"}, or {...}garbage), which is not a JSON object, is accepted instead of 401; a payload cut short inside the object is still refused.',
    install: (app) =>
      alsoAccept(app, async (token, { keys }) => {
        const [headerPart, payloadPart] = token.split('.');
        const header = jsonObjectOf(headerPart);
        if (!header || header.alg !== ALG || header.kid !== keys.kid || payloadPart === undefined) return undefined;
        // A payload JSON.parse reads was judged by the verifier already.
        if (jsonObjectOf(payloadPart) || !rs256SignatureVerifies(token, keys.publicKey)) return undefined;
        return firstObjectOf(Buffer.from(payloadPart, 'base64url').toString('utf8'));
      }),
  },
  {
    id: 'ho24-header-alg-from-webcrypto-key',
    clause: 'auth.token.header',
    level: 'observed',
    bug: `A verifier on Web Crypto that imports each JWKS entry once with its own alg (${ALG}: RSASSA-PKCS1-v1_5, SHA-256) and verifies with crypto.subtle.verify(key.algorithm, key, signature, input), reading the header's alg only to refuse "none": a token signed ${ALG} with the tenant key whose header says "RS512" (or "PS256", "HS256", or no alg) is accepted instead of 401; the same token whose header says "none" is still refused.`,
    install: (app) =>
      alsoAccept(app, async (token, { keys }) => {
        const [headerPart, payloadPart] = token.split('.');
        const header = jsonObjectOf(headerPart);
        if (!header || header.alg === 'none' || header.alg === ALG || header.kid !== keys.kid) return undefined;
        return rs256SignatureVerifies(token, keys.publicKey) ? jsonObjectOf(payloadPart) : undefined;
      }),
  },
  {
    id: 'ho24-token-age-microprofile-limit',
    clause: 'auth.token.claims',
    level: 'observed',
    bug: `A Quarkus resource server whose application.properties were copied from the web login's, mp.jwt.verify.token.age=${TOKEN_AGE_SECONDS} among them (a token older than that, counted from iat, is refused): a valid token issued two hours ago, with twenty-two hours still to live, is refused 401 instead of being accepted (a token without iat too); a token issued within the hour is accepted as before.`,
    install: (app) =>
      editVerifier(app, (verifier, { clock }) => {
        const aged = (verification: Verification): Verification => {
          if (!verification.ok) return verification;
          const { iat } = verification.principal.claims;
          if (typeof iat === 'number' && clock.now() - iat * 1000 <= TOKEN_AGE_SECONDS * 1000 + CLOCK_SKEW_MS) return verification;
          return { ok: false, error: 'invalid_token', reason: 'the token is older than mp.jwt.verify.token.age' };
        };
        return {
          async verify(authorization, host) {
            return aged(await verifier.verify(authorization, host));
          },
          checkClaims(claims, host) {
            return aged(verifier.checkClaims(claims, host));
          },
        };
      }),
  },
]);
