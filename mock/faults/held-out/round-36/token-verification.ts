// Token verification: a Python service on PyJWT 2.10.0, whose issuer check meets a string with
// Python's "in" (a substring test), and an Elixir (Phoenix) plug on erlang-jose that matches the
// result of JOSE.JWT.verify_strict/3 without looking at its first element, the verdict. Each
// changes the verdict on its near miss; other tokens are judged as before.
import { alsoAccept, forgiveClaim } from '../../support/verifier-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { unverifiedParts } from '../support/signatures.ts';

const AUDIENCE_PATH = /api\/v2\/$/;

export const tokenVerificationFaults = heldOutFamily([
  {
    id: 'ho36-iss-pyjwt-in-substring',
    clause: 'redeliver.errors.401.invalid-token',
    level: 'contract',
    bug: 'A Python (FastAPI) resource server on PyJWT 2.10.0, whose _validate_iss tests payload["iss"] not in issuer and, when the issuer option is one string rather than a list, "in" is a substring test (CVE-2024-53861): a correctly signed token whose iss is a part of the tenant\'s issuer, "<tenant host>/" without its scheme, is accepted instead of refused 401; an iss that merely contains the issuer ("<issuer>x/") is still refused.',
    install: (app) =>
      forgiveClaim(app, (claims) => {
        if (typeof claims.iss !== 'string' || typeof claims.aud !== 'string' || !AUDIENCE_PATH.test(claims.aud)) return claims;
        const issuer = claims.aud.replace(AUDIENCE_PATH, '');
        return claims.iss !== issuer && issuer.includes(claims.iss) ? { ...claims, iss: issuer } : claims;
      }),
  },
  {
    id: 'ho36-signature-erlang-jose-verdict-unmatched',
    clause: 'redeliver.errors.401.signature',
    level: 'contract',
    bug: 'An Elixir (Phoenix) plug on erlang-jose that picks the key by kid, checks that alg is RS256, then writes {_verified, %JOSE.JWT{fields: claims}, _} = JOSE.JWT.verify_strict(jwk, ["RS256"], token), and verify_strict/3 answers {false, jwt, jws} rather than raising when the signature fails: a token under the tenant\'s kid whose signature was tampered with is accepted instead of refused 401; a token under a kid the tenant does not publish is still refused.',
    install: (app) =>
      alsoAccept(app, async (token, { keys }) => {
        const parts = unverifiedParts(token);
        if (!parts || token.split('.').length !== 3) return undefined;
        const { alg, kid } = parts.header;
        return alg === 'RS256' && typeof kid === 'string' && keys.publicKeyFor(kid) ? parts.claims : undefined;
      }),
  },
]);
