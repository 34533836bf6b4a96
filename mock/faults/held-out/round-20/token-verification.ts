// Token verification: an alg header member trimmed before it is compared, an issuer compared the
// way a CHAR(n) column compares (trailing spaces ignored); and the observed rules: a kid sent as a
// one-element array unwrapped, and an exp written as a date-time string parsed as a date. Each lets
// its near miss through; other tokens are judged as before.
import { alsoAccept, forgiveClaim } from '../../support/verifier-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { rs256SignatureVerifies, unverifiedParts } from '../support/signatures.ts';

const ALG = 'RS256';

export const tokenVerificationFaults = heldOutFamily([
  {
    id: 'ho20-alg-header-trimmed',
    clause: 'redeliver.errors.401.signature',
    level: 'contract',
    bug: 'Header members read through a Go decoder that runs strings.TrimSpace on every string before the alg allow-list is consulted: a token whose header says "alg": "RS256 " (a trailing space, an algorithm no registry has) is accepted instead of 401; "alg": "RS 256" is still refused.',
    install: (app) =>
      alsoAccept(app, async (token, { keys }) => {
        const parts = unverifiedParts(token);
        const alg = parts?.header.alg;
        if (!parts || typeof alg !== 'string' || alg === ALG || alg.trim() !== ALG) return undefined;
        if (parts.header.kid !== keys.kid || !rs256SignatureVerifies(token, keys.publicKey)) return undefined;
        return parts.claims;
      }),
  },
  {
    id: 'ho20-iss-char-padded',
    clause: 'redeliver.errors.401.invalid-token',
    level: 'contract',
    bug: 'The issuer compared in SQL against a CHAR(n) column, whose PAD SPACE collation ignores trailing spaces: a token whose iss is "https://<tenant host>/   " is accepted instead of 401; an iss with anything else after the slash ("https://<tenant host>/x") is still refused.',
    install: (app) =>
      forgiveClaim(app, (claims) =>
        typeof claims.iss === 'string' && / +$/.test(claims.iss) ? { ...claims, iss: claims.iss.replace(/ +$/, '') } : claims,
      ),
  },
  {
    id: 'ho20-kid-single-element-array',
    clause: 'auth.token.header',
    level: 'observed',
    bug: 'The JOSE header bound by Jackson with UNWRAP_SINGLE_VALUE_ARRAYS on: a token whose header says "kid": ["<the tenant\'s kid>"] is verified with that key and accepted instead of 401 for a kid that is not a string; a kid array of two entries is still refused.',
    install: (app) =>
      alsoAccept(app, async (token, { keys }) => {
        const parts = unverifiedParts(token);
        const kid: unknown = parts?.header.kid;
        if (!parts || !Array.isArray(kid) || kid.length !== 1 || kid[0] !== keys.kid || parts.header.alg !== ALG) return undefined;
        return rs256SignatureVerifies(token, keys.publicKey) ? parts.claims : undefined;
      }),
  },
  {
    id: 'ho20-exp-iso-date-string',
    clause: 'auth.token.claims',
    level: 'observed',
    bug: 'exp bound to an Instant by a deserializer that also takes ISO 8601 text (Jackson\'s InstantDeserializer): "exp": "<an RFC 3339 time an hour ahead>" is accepted instead of 401 for a NumericDate that is not a number; "exp": "in an hour" (no date) is still refused.',
    install: (app) =>
      forgiveClaim(app, (claims) => {
        if (typeof claims.exp !== 'string' || !/^\d{4}-\d{2}-\d{2}T/.test(claims.exp)) return claims;
        const ms = Date.parse(claims.exp);
        return Number.isFinite(ms) ? { ...claims, exp: Math.floor(ms / 1000) } : claims;
      }),
  },
]);
