// The verifier trusts unsigned tokens: a token with `alg: none` passes if its claims would (right
// issuer, audience, lifetime and client). Every other token is verified as before.
import { bearerToken, decodeJws } from '../auth/bearer.ts';
import type { Fault } from './fault.ts';

export const acceptsAlgNone: Fault = {
  id: 'accepts-alg-none',
  clause: 'redeliver.errors.401.invalid-token',
  description: 'The token verifier accepts unsigned tokens (alg none) whose claims are otherwise valid.',
  install(app) {
    app.override('verifier', (verifier) => ({
      ...verifier,
      async verify(authorization) {
        const token = bearerToken(authorization);
        const decoded = token === undefined ? undefined : decodeJws(token);
        if (decoded?.header.alg === 'none') return verifier.checkClaims(decoded.payload);
        return verifier.verify(authorization);
      },
    }));
  },
};
