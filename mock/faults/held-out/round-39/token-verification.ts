// Token verification: a Python verifier whose time checks are one if/elif chain, so a token that
// carries nbf has its exp never looked at. Other tokens are judged as before.
import { observed } from '../../../../specs/index.ts';
import { forgiveClaim } from '../../support/verifier-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';

const SKEW_SECONDS = observed.tokens.clock_skew_seconds.value;

export const tokenVerificationFaults = heldOutFamily([
  {
    id: 'ho39-exp-unread-beside-nbf-python-elif',
    clause: 'redeliver.errors.401.invalid-token',
    level: 'contract',
    bug: 'A Python (Flask) verifier whose hand-written time checks read if "nbf" in claims: refuse when nbf > now + leeway, elif "exp" in claims: refuse when exp < now - leeway (an elif where a second if was meant): a correctly signed token that carries an nbf in the past together with an exp an hour past is accepted instead of 401; the same expired token without nbf is still refused, and one whose nbf is an hour ahead is still refused.',
    install: (app) =>
      forgiveClaim(app, (claims, parts) => {
        const now = Math.floor(parts.clock.now() / 1000);
        if (typeof claims.nbf !== 'number' || claims.nbf > now + SKEW_SECONDS || typeof claims.exp !== 'number') return claims;
        return claims.exp >= now ? claims : { ...claims, exp: now + 60 };
      }),
  },
]);
