// Token verification: a crit header member never looked at (a verifier that knows no extensions and
// does not refuse them), an issuer found with Lua's plain string.find (a substring, not a match);
// and the observed rules: a public key carried in the token's own jwk header trusted, and a null nbf
// decoded as absent (Swift's decodeIfPresent). Each lets its near miss through; other tokens are
// judged as before.
import { createPublicKey, type JsonWebKey } from 'node:crypto';
import { alsoAccept, forgiveClaim } from '../../support/verifier-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { rs256SignatureVerifies, unverifiedParts } from '../support/signatures.ts';

const ALG = 'RS256';
const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

export const tokenVerificationFaults = heldOutFamily([
  {
    id: 'ho21-crit-extension-ignored',
    clause: 'redeliver.errors.401.signature',
    level: 'contract',
    bug: 'The signature checked by a hand-written verifier that never reads "crit" (as PyJWT and older go-jose do): a token whose header says "crit": ["urn:example:trace"], an extension the service does not understand and must refuse, is accepted instead of 401; a crit naming a member the header does not carry is still refused.',
    install: (app) =>
      alsoAccept(app, async (token, { keys }) => {
        const parts = unverifiedParts(token);
        const crit: unknown = parts?.header.crit;
        if (!parts || !Array.isArray(crit) || crit.length === 0) return undefined;
        if (!crit.every((name) => typeof name === 'string' && parts.header[name] !== undefined)) return undefined;
        if (parts.header.alg !== ALG || parts.header.kid !== keys.kid) return undefined;
        return rs256SignatureVerifies(token, keys.publicKey) ? parts.claims : undefined;
      }),
  },
  {
    id: 'ho21-iss-lua-find-unanchored',
    clause: 'redeliver.errors.401.invalid-token',
    level: 'contract',
    bug: 'The issuer checked in OpenResty with string.find(iss, expected, 1, true), which answers where the expected issuer occurs, not whether iss is it: a token whose iss is "https://proxy.example/?from=https://<tenant host>/" is accepted instead of 401; an iss that does not contain the tenant\'s ("https://proxy.example/") is still refused.',
    install: (app) =>
      forgiveClaim(app, (claims, { tenant }) =>
        typeof claims.iss === 'string' && claims.iss !== tenant.issuer && claims.iss.includes(tenant.issuer)
          ? { ...claims, iss: tenant.issuer }
          : claims,
      ),
  },
  {
    id: 'ho21-embedded-jwk-trusted',
    clause: 'auth.token.header',
    level: 'observed',
    bug: 'A token that carries its own public key in a "jwk" header member is verified with that key (the node-jose embedded-key mistake, CVE-2018-0114): a token signed with a key the tenant never published, whose header has that key as jwk and the tenant\'s kid, is accepted instead of 401; the same token without the jwk member is still refused.',
    install: (app) =>
      alsoAccept(app, async (token, { keys }) => {
        const parts = unverifiedParts(token);
        const jwk = parts?.header.jwk;
        if (!parts || !isObject(jwk) || jwk.kty !== 'RSA' || parts.header.alg !== ALG || parts.header.kid !== keys.kid) return undefined;
        try {
          const embedded = createPublicKey({ key: jwk as JsonWebKey, format: 'jwk' });
          return rs256SignatureVerifies(token, embedded) ? parts.claims : undefined;
        } catch {
          return undefined;
        }
      }),
  },
  {
    id: 'ho21-nbf-null-decode-if-present',
    clause: 'auth.token.claims',
    level: 'observed',
    bug: 'The claims decoded by Swift\'s Codable with decodeIfPresent, which answers nil for a null as for a missing key: a token whose nbf is null is accepted instead of 401 for an nbf that is not a NumericDate; "nbf": "soon" is still refused.',
    install: (app) =>
      forgiveClaim(app, (claims) => {
        if (claims.nbf !== null) return claims;
        const { nbf: _nbf, ...rest } = claims;
        return rest;
      }),
  },
]);
