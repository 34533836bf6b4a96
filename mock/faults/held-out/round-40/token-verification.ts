// Token verification: a verifier whose multi-audience path (a token whose aud is a list) checks the
// audiences and never the issuer. Other tokens are judged as before.
import { audiencesOf } from '../../../auth/bearer.ts';
import { forgiveClaim } from '../../support/verifier-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';

export const tokenVerificationFaults = heldOutFamily([
  {
    id: 'ho40-iss-unchecked-for-list-audience',
    clause: 'redeliver.errors.401.invalid-token',
    level: 'contract',
    bug: 'A Java verifier (Nimbus JOSE) with two claim verifiers chosen by the shape of aud: a DefaultJWTClaimsVerifier with the exact issuer for a string aud, and, for a list aud (added later for tokens of several APIs), a hand-written verifier that checks the management audience is among them and forgets the issuer: a correctly signed token whose aud is a list holding the management audience and whose iss is another tenant is accepted (202) instead of 401; the same wrong iss with aud a string is still refused, and a list aud with the right iss is accepted as before.',
    install: (app) =>
      forgiveClaim(app, (claims, parts) => {
        if (!Array.isArray(claims.aud)) return claims;
        const identity = audiencesOf(claims.aud)
          .map((aud) => (typeof aud === 'string' ? parts.tenant.identityForAudience(aud) : undefined))
          .find((found) => found !== undefined);
        return identity === undefined || claims.iss === identity.issuer ? claims : { ...claims, iss: identity.issuer };
      }),
  },
]);
