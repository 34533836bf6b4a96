// A verifier that checks the signature and forgets the audience: a token the tenant issued for
// another API opens the management interface.
import type { Fault } from './fault.ts';
import { forgiveClaim } from './support/verifier-edits.ts';

export const acceptsWrongAudience: Fault = {
  id: 'accepts-wrong-audience',
  clause: 'redeliver.errors.401.invalid-token',
  description: 'The token verifier ignores aud, so a correctly signed token for another audience is accepted by every operation.',
  install(app) {
    forgiveClaim(app, (claims, { tenant }) => ({ ...claims, aud: tenant.audience }));
  },
};
