// Token verification: nbf compared as if it were in milliseconds, a library's five-minute default
// leeway on exp, an audience compared without its trailing slash; and the observed rules: iat left
// unchecked when nbf is present, and a null nbf taken for an absent one. Each lets its near miss
// through; other tokens are judged as before.
import { forgiveClaim } from '../../support/verifier-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';

const LIBRARY_LEEWAY_MS = 300_000;

export const tokenVerificationFaults = heldOutFamily([
  {
    id: 'ho18-nbf-compared-in-milliseconds',
    clause: 'redeliver.errors.401.invalid-token',
    level: 'contract',
    bug: 'nbf compared with Date.now() as it stands (now < nbf, no * 1000: the NumericDate taken for milliseconds), so it is always in the past: a token not valid for another hour is accepted instead of 401; a token whose iat is an hour ahead is still refused.',
    install: (app) =>
      forgiveClaim(app, (claims) => {
        if (typeof claims.nbf !== 'number') return claims;
        const { nbf: _ignored, ...rest } = claims;
        return rest;
      }),
  },
  {
    id: 'ho18-exp-leeway-five-minutes',
    clause: 'redeliver.errors.401.invalid-token',
    level: 'contract',
    bug: "The token validated with a JWT library whose default clock skew is five minutes (ClockSkew = 300 s, left unset) instead of the service's tens of seconds: a token that expired two minutes ago is accepted instead of 401; one that expired ten minutes ago is still refused.",
    install: (app) =>
      forgiveClaim(app, (claims, { clock }) => {
        const { exp } = claims;
        const now = clock.now();
        return typeof exp === 'number' && exp * 1000 <= now && now < exp * 1000 + LIBRARY_LEEWAY_MS
          ? { ...claims, exp: Math.floor(now / 1000) + 60 }
          : claims;
      }),
  },
  {
    id: 'ho18-aud-trailing-slash-ignored',
    clause: 'redeliver.errors.401.invalid-token',
    level: 'contract',
    bug: 'The audience compared after stripping trailing slashes from both sides (a URL "normalise" helper): a token whose aud is ".../api/v2" without its slash is accepted instead of 401; an aud of ".../api/v3/" is still refused.',
    install: (app) =>
      forgiveClaim(app, (claims) =>
        typeof claims.aud === 'string' && claims.aud.length > 0 && !claims.aud.endsWith('/')
          ? { ...claims, aud: `${claims.aud}/` }
          : claims,
      ),
  },
  {
    id: 'ho18-iat-unchecked-when-nbf-present',
    clause: 'auth.token.claims',
    level: 'observed',
    bug: 'One "not before" instant read as nbf ?? iat (nbf preferred, iat only its fallback): a token with nbf a minute ago and iat an hour ahead is accepted instead of 401; the same iat without nbf is still refused.',
    install: (app) =>
      forgiveClaim(app, (claims) => {
        if (typeof claims.nbf !== 'number' || claims.iat === undefined) return claims;
        const { iat: _ignored, ...rest } = claims;
        return rest;
      }),
  },
  {
    id: 'ho18-nbf-null-as-absent',
    clause: 'auth.token.claims',
    level: 'observed',
    bug: 'nbf checked only when nbf != null (loose comparison, null taken for "not sent"): a token with "nbf": null is accepted instead of 401 for a time that is not a number; "nbf": "soon" is still refused.',
    install: (app) =>
      forgiveClaim(app, (claims) => {
        if (claims.nbf !== null) return claims;
        const { nbf: _ignored, ...rest } = claims;
        return rest;
      }),
  },
]);
