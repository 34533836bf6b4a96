// Token verification: a Directus extension whose own expiry check only looks at a number, and an
// AWS AppSync resolver written for Cognito access tokens, which carry client_id and no aud; and the
// observed rule: a Clojure (Pedestal, buddy-auth) interceptor that checks only the subject's suffix. Each
// changes the verdict on its near miss; other tokens are judged as before.
import { forgiveClaim } from '../../support/verifier-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';

export const tokenVerificationFaults = heldOutFamily([
  {
    id: 'ho34-exp-directus-typeof-number',
    clause: 'redeliver.errors.401.invalid-token',
    level: 'contract',
    bug: 'A Directus (Node) extension that checks expiry itself with if (typeof payload.exp === \'number\' && payload.exp < now) throw new TokenExpiredError(), so that an exp written as a string of digits is never compared: a correctly signed token whose exp is "<a time an hour ago>" (a string) is accepted instead of refused 401; the same exp as a number is still refused.',
    install: (app) =>
      forgiveClaim(app, (claims, { clock }) =>
        typeof claims.exp === 'string' && /^\d+$/.test(claims.exp) ? { ...claims, exp: Math.floor(clock.now() / 1000) + 60 } : claims,
      ),
  },
  {
    id: 'ho34-aud-appsync-cognito-client-id',
    clause: 'redeliver.errors.401.invalid-token',
    level: 'contract',
    bug: 'An AWS AppSync (Amplify) resolver whose token check was written for Cognito user-pool access tokens, which carry client_id and no aud: where aud is missing it checks client_id against the caller instead, so a correctly signed token without aud whose client_id is its azp is accepted instead of refused 401; a token without aud and without client_id, or with aud of another API, is still refused.',
    install: (app) =>
      forgiveClaim(app, (claims, { tenant }) => {
        if (claims.aud !== undefined || typeof claims.client_id !== 'string' || claims.client_id !== claims.azp) return claims;
        const identity = typeof claims.iss === 'string' ? tenant.identityForIssuer(claims.iss) : undefined;
        return identity ? { ...claims, aud: identity.audience } : claims;
      }),
  },
  {
    id: 'ho34-sub-pedestal-ends-with-clients',
    clause: 'auth.token.claims',
    level: 'observed',
    bug: 'A Clojure (Pedestal) interceptor on buddy-auth that checks the caller with (str/ends-with? (:sub claims) "@clients") and never that the part before it is the token\'s azp: a correctly signed token whose sub is "<another client\'s id>@clients" is accepted instead of refused 401; sub "<azp>@client" is still refused.',
    install: (app) =>
      forgiveClaim(app, (claims) =>
        typeof claims.sub === 'string' &&
        typeof claims.azp === 'string' &&
        claims.sub.endsWith('@clients') &&
        claims.sub.length > '@clients'.length
          ? { ...claims, sub: `${claims.azp}@clients` }
          : claims,
      ),
  },
]);
