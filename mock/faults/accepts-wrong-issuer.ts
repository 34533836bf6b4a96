// A verifier that trusts the key and forgets the issuer: a token signed with the tenant's key but
// naming another issuer is accepted.
import type { Fault } from './fault.ts';
import { forgiveClaim } from './support/verifier-edits.ts';

export const acceptsWrongIssuer: Fault = {
  id: 'accepts-wrong-issuer',
  clause: 'redeliver.errors.401.invalid-token',
  description: 'The token verifier ignores iss, so a correctly signed token from another issuer is accepted by every operation.',
  install(app) {
    forgiveClaim(app, (claims, { tenant }) => ({ ...claims, iss: tenant.issuer }));
  },
};
