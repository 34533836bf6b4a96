// A verifier that never checks nbf or iat against the clock: a correctly signed token dated in the
// future is accepted at once.
import type { Fault } from './fault.ts';
import { forgiveClaim } from './support/verifier-edits.ts';

export const acceptsNotYetValidToken: Fault = {
  id: 'accepts-not-yet-valid-token',
  clause: 'redeliver.errors.401.invalid-token',
  description: 'The token verifier ignores nbf and iat, so a correctly signed token that is not yet valid is accepted by every operation.',
  install(app) {
    forgiveClaim(app, ({ nbf: _nbf, iat: _iat, ...claims }) => claims);
  },
};
